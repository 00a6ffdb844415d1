// The rules around settings changes: merge, validate, refuse integration toggles during a
// recording, apply presets, and echo `Settings` to the frontend only when something changed.
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import Value from 'typebox/value';
import { CommandError } from '../commands/command-error.js';
import { Settings, describeProblems, type PresetName, type SettingsChanges } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { EVENT_SINK, type EventSink } from '../transport/event-sink.js';
import { Notifier } from './notifier.js';
import { clipPresetChanges, videoPresetChanges } from './presets.js';
import { SettingsStore } from './settings-store.js';
import { StateStore } from './state-store.js';
import { validFolder } from './valid-folder.js';

/** Migration-only fields: a frontend echoing them back must not resurrect them. */
const LEGACY_FIELDS = ['whitelist', 'blacklist'] as const;

@injectable()
export class SettingsService {
  private readonly logger: Logger;

  constructor(
    private readonly store: SettingsStore,
    private readonly state: StateStore,
    private readonly notifier: Notifier,
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('settings');
  }

  get current(): Readonly<Settings> {
    return this.store.current;
  }

  /** Merges `changes` into the settings; returns whether anything changed. Throws `CommandError`. */
  update(changes: SettingsChanges): boolean {
    const incoming = this.knownFields(changes);
    const next = mergeSettings(this.store.current, incoming);

    const problems = describeProblems(Settings, next);
    if (problems.length > 0) throw new CommandError('InvalidParameters', `Settings not saved: ${problems.join('; ')}`);
    for (const folder of ['contentFolder', 'cacheFolder'] as const) {
      if (!path.isAbsolute(next[folder])) throw new CommandError('InvalidParameters', `Settings not saved: ${folder} must be an absolute path`);
      // A new folder passes the same check as SetVideoLocation / SetCacheLocation: no `..`, no NUL.
      if (next[folder] !== this.store.current[folder]) validFolder(next[folder]);
    }
    this.refuseIntegrationToggleWhileRecording(next);

    if (Value.Equal(next, this.store.current)) return false;
    this.commit(next);
    return true;
  }

  /** Only fields this version knows are taken; legacy and unknown ones are logged and dropped. */
  private knownFields(changes: SettingsChanges): Record<string, unknown> {
    const known = Object.fromEntries(Object.entries(changes)
      .filter(([field]) => Object.hasOwn(Settings.properties, field) && !(LEGACY_FIELDS as readonly string[]).includes(field)));
    const ignored = Object.keys(changes).filter((field) => !Object.hasOwn(known, field));
    if (ignored.length > 0) this.logger.info('UpdateSettings: ignored fields this version does not take', { fields: ignored });
    return known;
  }

  applyVideoPreset(preset: PresetName): void {
    this.commit(mergeSettings(this.store.current, videoPresetChanges(preset, this.state.current.maxDisplayHeight)));
  }

  applyClipPreset(preset: PresetName): void {
    this.commit(mergeSettings(this.store.current, clipPresetChanges(preset)));
  }

  publish(): void {
    this.events.send('Settings', this.store.current);
  }

  private commit(next: Settings): void {
    this.store.replace(next);
    if (this.state.current.cacheFolder !== toWirePath(next.cacheFolder)) this.state.update({ cacheFolder: toWirePath(next.cacheFolder) });
    this.publish();
  }

  private refuseIntegrationToggleWhileRecording(next: Settings): void {
    const { recording, preRecording } = this.state.current;
    if (!recording && !preRecording) return;
    const current = this.store.current.gameIntegrations;
    const toggled = Object.keys(next.gameIntegrations)
      .filter((key) => (current[key]?.enabled ?? true) !== next.gameIntegrations[key]?.enabled);
    if (toggled.length === 0) return;
    const message = `Game integrations cannot be switched on or off during a recording (${toggled.join(', ')}). Stop the recording first.`;
    this.logger.warn('integration toggle refused during a recording', { integrations: toggled });
    this.notifier.showModal({ title: 'Recording in progress', description: message, type: 'warning' });
    throw new CommandError('NotAllowed', message);
  }
}

/** Forward slashes, as every path on the wire (protocol-gaps.md §1). */
export const toWirePath = (filePath: string) => filePath.replaceAll('\\', '/');

/** Plain objects merge key by key (so `{gameIntegrations: {x: {enabled: false}}}` works); anything else replaces. */
export function mergeSettings(current: Settings, changes: Record<string, unknown>): Settings {
  return mergeValue(current, changes) as Settings;
}

function mergeValue(current: unknown, change: unknown): unknown {
  if (!isPlainObject(current) || !isPlainObject(change)) return structuredClone(change);
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(change)) {
    if (value !== undefined) merged[key] = mergeValue(current[key], value);
  }
  return merged;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
