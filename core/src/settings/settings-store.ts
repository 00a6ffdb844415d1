// settings.json in the data folder. Reading is tolerant (a broken file is moved aside, bad fields
// reset); writing is atomic and coalesced, so a burst of changes costs one write and a kill at any
// moment leaves a file that parses and holds one of the values sent.
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { injectable } from 'tsyringe';
import { Value } from '#typebox';
import { Settings } from '../protocol/index.js';
import { ServiceOptions } from '../service-options.js';
import { writeFileAtomic } from '../support/atomic-file.js';
import { Logger } from '../support/logger.js';
import { migrateLegacyGameLists } from './legacy-game-lists.js';
import { normalizeSettings } from './settings-normalizer.js';
import { untrustedFolderReason } from './valid-folder.js';

export const SAVE_DELAY_MS = 50;

export interface SettingsLoadReport {
  firstRun: boolean;
  /** Where an unreadable settings file was moved to. */
  brokenFileMovedTo?: string;
  repairedFields: string[];
  migratedLegacyGames: number;
}

@injectable()
export class SettingsStore {
  private settings: Settings;
  private saveTimer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();
  private readonly logger: Logger;
  private readonly listeners = new Set<SettingsListener>();

  constructor(
    private readonly options: ServiceOptions,
    logger: Logger,
  ) {
    this.logger = logger.child('settings');
    this.settings = this.defaults();
  }

  get current(): Readonly<Settings> {
    return this.settings;
  }

  defaults(): Settings {
    return {
      ...Value.Create(Settings),
      contentFolder: this.options.defaultContentFolder,
      cacheFolder: this.options.defaultCacheFolder,
    } as Settings;
  }

  async load(): Promise<SettingsLoadReport> {
    const file = this.options.settingsFile;
    await this.removeInterruptedWrites();
    const report: SettingsLoadReport = { firstRun: false, repairedFields: [], migratedLegacyGames: 0 };
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      report.firstRun = true;
      this.settings = this.defaults();
      await this.save();
      this.logger.info('first run: default settings written', { file });
      return report;
    }

    const raw = parseObject(text);
    if (!raw) {
      report.brokenFileMovedTo = `${file}.broken-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await rename(file, report.brokenFileMovedTo);
      this.logger.warn('settings file is not a JSON object: moved aside, defaults used', { file, movedTo: report.brokenFileMovedTo });
      this.settings = this.defaults();
      await this.save();
      return report;
    }

    const normalized = normalizeSettings(raw, this.defaults());
    const migrated = migrateLegacyGameLists(normalized.settings);
    report.repairedFields = [...normalized.repairedFields, ...(await this.distrustFolders(migrated.settings))];
    this.reportIgnoredOrigins(raw);
    report.migratedLegacyGames = migrated.migratedGames;
    this.settings = migrated.settings;
    if (report.repairedFields.length > 0) this.logger.warn('invalid settings reset to defaults', { fields: report.repairedFields });
    if (report.migratedLegacyGames > 0)
      this.logger.info('legacy whitelist/blacklist migrated into games', { games: report.migratedLegacyGames });
    if (report.repairedFields.length > 0 || report.migratedLegacyGames > 0) await this.save();
    return report;
  }

  /**
   * A content or cache folder that an older version saved without checking (`/`, `/proc`, a file) is
   * replaced by the default; the other settings stay. Returns the fields reset.
   */
  private async distrustFolders(settings: Settings): Promise<string[]> {
    const reset: string[] = [];
    const defaults = this.defaults();
    for (const field of ['contentFolder', 'cacheFolder'] as const) {
      const reason = await untrustedFolderReason(settings[field]);
      if (!reason) continue;
      this.logger.warn(`settings: ${field} not used, the default is used instead`, {
        field,
        folder: settings[field],
        reason,
        default: defaults[field],
      });
      settings[field] = defaults[field];
      reset.push(field);
    }
    return reset;
  }

  /** Older versions let a frontend save `allowedOrigins`; the value stays in the file but grants nothing. */
  private reportIgnoredOrigins(raw: Record<string, unknown>): void {
    const origins = raw.allowedOrigins;
    if (!Array.isArray(origins) || origins.length === 0) return;
    this.logger.warn(
      'settings: allowedOrigins saved in settings.json are ignored; to allow a web origin, start Keyframe with ' +
        '--allowed-origin <origin> or set KEYFRAME_ALLOWED_ORIGINS',
      { file: this.options.settingsFile, ignored: origins },
    );
  }

  /** Temp files of a write that a crash interrupted; settings.json itself is intact. */
  private async removeInterruptedWrites(): Promise<void> {
    const prefix = `${path.basename(this.options.settingsFile)}.tmp-`;
    const folder = path.dirname(this.options.settingsFile);
    const leftovers = (await readdir(folder)).filter((name) => name.startsWith(prefix));
    await Promise.all(leftovers.map((name) => rm(path.join(folder, name), { force: true })));
  }

  /** Replaces the settings in memory at once and persists them shortly after. */
  replace(next: Settings): void {
    const previous = this.settings;
    this.settings = next;
    for (const { heard, fields } of this.listeners) {
      if (!fields || fields.some((field) => !Value.Equal(previous[field], next[field]))) heard(next);
    }
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = undefined;
      void this.save().catch((error: unknown) => this.logger.error('could not save settings', { error }));
    }, SAVE_DELAY_MS);
  }

  /**
   * Called after every change made through `replace`; with `fields`, only after a change to one of them
   * (a listener with costly work, e.g. reconciling every integration, is not woken by a clip preset).
   */
  onChange(listener: (settings: Readonly<Settings>) => void, fields?: readonly (keyof Settings)[]): () => void {
    const entry: SettingsListener = { heard: listener, ...(fields && { fields }) };
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  /** Writes pending changes now; used at shutdown. */
  async flush(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      await this.save();
    }
    await this.saving;
  }

  /** One write at a time, each of the newest settings. */
  private save(): Promise<void> {
    this.saving = this.saving
      .catch(() => undefined)
      .then(() => writeFileAtomic(this.options.settingsFile, `${JSON.stringify(this.settings, null, 2)}\n`));
    return this.saving;
  }
}

interface SettingsListener {
  heard(settings: Readonly<Settings>): void;
  /** Only these fields matter to it; undefined: all. */
  fields?: readonly (keyof Settings)[];
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
