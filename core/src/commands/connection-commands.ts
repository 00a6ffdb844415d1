// NewConnection: everything a frontend needs to draw itself, in SPEC's order; RequestState (Incremental
// State): the full State again, for a frontend that missed a StatePatch. Both wait until the service has
// started; a frontend that connects during data migrations hears their MigrationStatus meanwhile.
import { inject, injectable } from 'tsyringe';
import { GameCatalog } from '../games/game-catalog.js';
import { DataMigrations } from '../library/data-migrations.js';
import { Notifier } from '../notices/notifier.js';
import { RecoveryService } from '../recording/recovery-service.js';
import { SettingsService } from '../settings/settings-service.js';
import { StatePublisher } from '../state/state-publisher.js';
import { StorageWarnings } from '../storage/storage-warnings.js';
import { UpdateStatus } from '../updates/update-status.js';
import { appVersion } from '../support/app-version.js';
import { Logger } from '../support/logger.js';
import { StartupGate } from '../support/startup-gate.js';
import { Updater } from '../updates/updater.js';
import { UploadService } from '../uploads/upload-service.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class ConnectionCommands implements CommandGroup {
  private readonly logger: Logger;

  constructor(
    private readonly settings: SettingsService,
    private readonly state: StatePublisher,
    private readonly games: GameCatalog,
    private readonly updates: UpdateStatus,
    private readonly notifier: Notifier,
    private readonly recovery: RecoveryService,
    private readonly storageWarnings: StorageWarnings,
    private readonly updater: Updater,
    private readonly uploads: UploadService,
    private readonly migrations: DataMigrations,
    private readonly startup: StartupGate,
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('connection');
  }

  readonly handlers: CommandHandlers = {
    NewConnection: async () => {
      if (this.migrations.status.isRunning) this.events.send('MigrationStatus', this.migrations.status);
      if (this.startup.closedBecause !== undefined) await this.startup.whenOpen();
      this.settings.publish();
      this.state.sendNow();
      this.events.send('GameList', this.games.list());
      this.events.send('AppVersion', { version: appVersion(), canSelfUpdate: this.updater.canSelfUpdate });
      if (this.updates.lastProgress) this.events.send('UpdateProgress', this.updates.lastProgress);
      this.uploads.replayProgress();
      this.notifier.deliverPending();
      this.recovery.offerPending();
      this.storageWarnings.offerPending();
      // Release notes may come from the network: they follow when they are ready.
      void this.updates
        .releaseNotes()
        .then((releaseNotesList) => {
          this.events.send('ReleaseNotes', { releaseNotesList });
          // After the notes it names, once: the first frontend after a restart into a new version.
          const previousVersion = this.updater.takeReleaseNotesToShow();
          if (previousVersion) this.events.send('ShowReleaseNotes', previousVersion);
        })
        .catch((error: unknown) => this.logger.warn('release notes unavailable', { error }));
    },
    RequestState: async () => {
      if (this.startup.closedBecause !== undefined) await this.startup.whenOpen();
      this.state.sendNow();
    },
  };
}
