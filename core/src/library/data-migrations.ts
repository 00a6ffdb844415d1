// Start-up data migrations: changes to what earlier versions left in the data and cache folders,
// each applied once, in id order, before the library loads. Applied ids are recorded in
// `<data>/migrations.json` (written atomically after each one), so a migration never runs twice; one
// that fails is logged and retried at the next start, and the ones after it wait for it. While any
// run, `MigrationStatus {isRunning, currentMigration}` is sent before each and `{false, null}` at the
// end; nothing is sent when none is pending. `currentMigration` is the migration's description (what a
// person reads); its id stays in migrations.json and the log. The service opens its socket before a run,
// so a frontend that connects meanwhile gets the current status (`status`) with its NewConnection.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { ServiceOptions } from '../service-options.js';
import { writeFileAtomic } from '../support/atomic-file.js';
import { Logger } from '../support/logger.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { SettingsStore } from '../settings/settings-store.js';
import type { EventContentMap } from '../protocol/index.js';
import { SIDECARS_V2 } from './sidecar-migration.js';

type MigrationStatus = EventContentMap['MigrationStatus'];
const NOT_RUNNING: MigrationStatus = { isRunning: false, currentMigration: null };

export interface MigrationContext {
  dataFolder: string;
  cacheFolder: string;
  contentFolder: string;
  logger: Logger;
}

export interface DataMigration {
  /** `NNNN_what_it_does`: sorts in the order migrations run. */
  id: string;
  /** What it does, as the person waiting reads it (`MigrationStatus.currentMigration`). */
  description: string;
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
    description: 'Removing thumbnails left over from an interrupted start',
    async run({ cacheFolder }) {
      await rm(path.join(cacheFolder, 'thumbnails', 'pending'), { recursive: true, force: true });
    },
  },
  SIDECARS_V2,
];

@injectable()
export class DataMigrations {
  private readonly logger: Logger;
  private current: MigrationStatus = NOT_RUNNING;

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

  /** The last `MigrationStatus` sent: what a frontend connecting now is told. */
  get status(): MigrationStatus {
    return this.current;
  }

  /** Whether any of `migrations` has not been applied yet. */
  async anyPending(migrations: readonly DataMigration[] = DATA_MIGRATIONS): Promise<boolean> {
    return this.pendingOf(migrations, await this.read()).length > 0;
  }

  /** Runs the pending ones; resolves to the ids applied now. Never throws: a failure is logged and stops the run. */
  async run(migrations: readonly DataMigration[] = DATA_MIGRATIONS): Promise<string[]> {
    const record = await this.read();
    const pending = this.pendingOf(migrations, record);
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
        this.announce({ isRunning: true, currentMigration: migration.description });
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
      this.announce(NOT_RUNNING);
    }
    return applied;
  }

  private announce(status: MigrationStatus): void {
    this.current = status;
    this.events.send('MigrationStatus', status);
  }

  private pendingOf(migrations: readonly DataMigration[], record: MigrationRecord): DataMigration[] {
    const done = new Set(record.applied.map((entry) => entry.id));
    return [...migrations].sort((a, b) => a.id.localeCompare(b.id)).filter((migration) => !done.has(migration.id));
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
