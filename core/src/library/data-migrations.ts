// Start-up data migrations: changes to what earlier versions left in the data and cache folders,
// each applied once, in id order, before the library loads. Applied ids are recorded in
// `<data>/migrations.json` (written atomically after each one), so a migration never runs twice; one
// that fails is logged and retried at the next start, and the ones after it wait for it. While any
// run, `MigrationStatus {isRunning, currentMigration}` is sent before each and `{false, null}` at the
// end; nothing is sent when none is pending.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { ServiceOptions } from '../service-options.js';
import { writeFileAtomic } from '../support/atomic-file.js';
import { Logger } from '../support/logger.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { SettingsStore } from '../settings/settings-store.js';
import { SIDECARS_V2 } from './sidecar-migration.js';

export interface MigrationContext {
  dataFolder: string;
  cacheFolder: string;
  contentFolder: string;
  logger: Logger;
}

export interface DataMigration {
  /** `NNNN_what_it_does`: sorts in the order migrations run. */
  id: string;
  run(context: MigrationContext): Promise<void>;
}

/** What `<data>/migrations.json` holds. */
interface MigrationRecord {
  applied: { id: string; at: string }[];
}

/** The migrations of this version, oldest first. */
export const DATA_MIGRATIONS: readonly DataMigration[] = [
  {
    // Thumbnails wait in `<cache>/thumbnails/pending/` between being made and their item being added;
    // a service that stopped in between (crash, kill) left them there, and nothing ever reads them.
    id: '0001_remove_orphaned_pending_thumbnails',
    async run({ cacheFolder }) {
      await rm(path.join(cacheFolder, 'thumbnails', 'pending'), { recursive: true, force: true });
    },
  },
  SIDECARS_V2,
];

@injectable()
export class DataMigrations {
  private readonly logger: Logger;

  constructor(
    private readonly options: ServiceOptions,
    private readonly settings: SettingsStore,
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('migrations');
  }

  get recordFile(): string {
    return path.join(this.options.dataFolder, 'migrations.json');
  }

  /** Runs the pending ones; resolves to the ids applied now. Never throws: a failure is logged and stops the run. */
  async run(migrations: readonly DataMigration[] = DATA_MIGRATIONS): Promise<string[]> {
    const record = await this.read();
    const done = new Set(record.applied.map((entry) => entry.id));
    const pending = [...migrations].sort((a, b) => a.id.localeCompare(b.id)).filter((migration) => !done.has(migration.id));
    if (pending.length === 0) return [];
    const context: MigrationContext = {
      dataFolder: this.options.dataFolder,
      cacheFolder: this.settings.current.cacheFolder,
      contentFolder: this.settings.current.contentFolder,
      logger: this.logger,
    };
    const applied: string[] = [];
    try {
      for (const migration of pending) {
        this.events.send('MigrationStatus', { isRunning: true, currentMigration: migration.id });
        const began = Date.now();
        try {
          await migration.run(context);
        } catch (error) {
          this.logger.error('data migration failed; it is retried at the next start', { id: migration.id, error });
          break;
        }
        record.applied.push({ id: migration.id, at: new Date().toISOString() });
        await writeFileAtomic(this.recordFile, `${JSON.stringify(record, null, 2)}\n`);
        applied.push(migration.id);
        this.logger.info('data migration applied', { id: migration.id, tookMs: Date.now() - began });
      }
    } catch (error) {
      this.logger.error('data migrations could not be recorded', { error });
    } finally {
      this.events.send('MigrationStatus', { isRunning: false, currentMigration: null });
    }
    return applied;
  }

  private async read(): Promise<MigrationRecord> {
    try {
      const value = JSON.parse(await readFile(this.recordFile, 'utf8')) as Partial<MigrationRecord>;
      const applied = Array.isArray(value.applied)
        ? value.applied.filter((entry): entry is MigrationRecord['applied'][number] => typeof entry?.id === 'string')
        : [];
      return { applied };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.logger.warn('migrations.json unreadable; treating every migration as pending', { error });
      return { applied: [] };
    }
  }
}
