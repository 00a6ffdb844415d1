// The composition root: one DI container per running service, start-up in order, orderly shutdown.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import { MachineCapabilities } from '../capabilities/machine-capabilities.js';
import { removeUnfinishedOutputs } from '../media/job-output.js';
import { IntegrationHost } from '../integrations/integration-host.js';
import { ServiceOptions } from '../service-options.js';
import { registerMachine, registerServices } from './registrations.js';
import { AutoRecorder } from '../recording/auto-recorder.js';
import { TYPE_FOLDERS, type ServiceEvent, type Settings, type State } from '../protocol/index.js';
import { ContentLibrary } from '../library/content-library.js';
import { DataMigrations } from '../library/data-migrations.js';
import { HighlightService } from '../jobs/highlight/highlight-service.js';
import { GameDetector } from '../games/game-detector.js';
import { Notifier } from '../notices/notifier.js';
import { clipWorkFolder } from '../jobs/clip/clip-service.js';
import { JobRunner } from '../jobs/job-runner.js';
import { RecorderService } from '../recording/recorder-service.js';
import { RecoveryService } from '../recording/recovery-service.js';
import { IntegrationSettingsSchemas } from '../settings/integration-settings-schemas.js';
import { SettingsStore, type SettingsLoadReport } from '../settings/settings-store.js';
import { StatePublisher } from '../state/state-publisher.js';
import { ConnectionHub } from '../transport/connection-hub.js';
import { StorageMonitor } from '../storage/storage-monitor.js';
import { WindowsGameModeSetting } from '../settings/windows-game-mode-setting.js';
import { AccountService } from '../accounts/account-service.js';
import { UploadService } from '../uploads/upload-service.js';
import { KeybindingService } from '../hotkeys/keybinding-service.js';
import type { DesktopWindow } from '../platform/desktop-window.js';
import { Updater } from '../updates/updater.js';
import { DataFolderLock } from '../support/data-folder-lock.js';
import { StartupGate } from '../support/startup-gate.js';
import { instanceSecret } from '../support/instance-secret.js';
import { InstanceIdentity, InstanceRoutes } from '../transport/instance-routes.js';
import { StartupProgress } from '../support/startup-progress.js';
import { ConsoleSink, Logger, logLevelFrom, RotatingFileSink, type LogLevel } from '../support/logger.js';
import { DefaultDialect } from '../transport/default-dialect.js';
import { Dispatcher } from '../transport/dispatcher.js';
import { HttpRoutes } from '../transport/http-routes.js';
import { HttpServer } from '../transport/http-server.js';
import { LegacyListener } from '../transport/legacy-listener.js';
import { MediaRoutes } from '../transport/media-routes.js';
import { ReferenceMediaListener } from '../transport/reference-media-listener.js';
import { staticFiles } from '../transport/static-files.js';
import { FileManager } from '../platform/file-manager.js';

/** The built web UI, beside this package in the workspace; `KEYFRAME_UI_DIR` points elsewhere. */
const uiFolder = () => process.env.KEYFRAME_UI_DIR ?? fileURLToPath(new URL('../../../ui/dist', import.meta.url));

export interface StartOptions {
  /** Level of the lines printed on stderr; the log file gets info and above (`KEYFRAME_LOG_LEVEL` changes that). */
  consoleLevel?: LogLevel;
  /** The window of a desktop shell embedding the service (fullscreen); default: the UI is in a browser tab. */
  desktopWindow?: DesktopWindow;
}

/**
 * The container of each running service, kept off the class so that it is not part of the embedding API: only the
 * composition root's own entries reach it (the CLI in main.ts, the bench's `@keyframe/core/internal`).
 */
const containers = new WeakMap<KeyframeService, DependencyContainer>();

/** The DI container of a running service: for main.ts and `app/bench-internals.ts`, never re-exported by host.ts. */
export function containerOf(service: KeyframeService): DependencyContainer {
  return containers.get(service)!;
}

/** The parts that start after the socket opens (State's `loading`), in the order they finish. */
const LOADED_AFTER_LISTENING = ['captureEngine', 'integrations', 'library', 'gameDetection'] as const;

export class KeyframeService {
  private loadingAfterListening: Promise<void> = Promise.resolve();

  private constructor(
    private readonly container: DependencyContainer,
    readonly options: ServiceOptions,
    private readonly logger: Logger,
    private readonly lock: DataFolderLock,
  ) {
    containers.set(this, container);
  }

  /**
   * Resolves once the service answers frontends; the capture engine, the integrations and game detection are
   * still loading then (`loaded()`, State's `loading`). Throws `DataFolderInUseError` when another running
   * Keyframe uses `options.dataFolder`.
   */
  static async start(options: ServiceOptions, startOptions: StartOptions = {}): Promise<KeyframeService> {
    await mkdir(options.dataFolder, { recursive: true });
    // Before the lock: a damaged secret file stops the start with nothing to undo.
    const secret = await instanceSecret(options.dataFolder);
    // Before anything reads or writes the folder (the log rotates, recovery scans, settings load).
    const lock = await DataFolderLock.acquire(options.dataFolder, options.port);
    const logger = new Logger([
      new RotatingFileSink(path.join(options.logFolder, 'keyframe.log'), { level: logLevelFrom(process.env.KEYFRAME_LOG_LEVEL, 'info') }),
      new ConsoleSink(startOptions.consoleLevel ?? 'warn'),
    ]);
    const container = rootContainer.createChildContainer();
    registerServices(container, { options, logger });
    registerMachine(container, startOptions.desktopWindow);
    container.registerInstance(InstanceIdentity, new InstanceIdentity(lock.instanceId, secret));

    const service = new KeyframeService(container, options, logger, lock);
    try {
      await service.startUp();
    } catch (error) {
      await service.stop();
      throw error;
    }
    return service;
  }

  get url(): string {
    return this.container.resolve(HttpServer).url;
  }

  get port(): number {
    return this.container.resolve(HttpServer).port;
  }

  get legacyPort(): number | undefined {
    return this.container.resolve(LegacyListener).port;
  }

  /** The settings in effect (read-only: a frontend changes them with `UpdateSettings`). */
  get settings(): Readonly<Settings> {
    return this.container.resolve(SettingsStore).current;
  }

  /** The runtime State as it is now (read-only; `onEvent` hears each change as a `State` event). */
  get state(): Readonly<State> {
    return this.container.resolve(StatePublisher).current;
  }

  /**
   * `listener` hears every event the service emits, as frontends get them in the default names (State always
   * whole), connected frontend or not; returns the function that unsubscribes it. For a desktop shell's tray and
   * notifications.
   */
  onEvent(listener: (event: ServiceEvent) => void): () => void {
    return this.container.resolve(ConnectionHub).onEvent(listener);
  }

  /** Resolves once nothing is loading any more (a part that failed to load is logged, and says so in State). */
  loaded(): Promise<void> {
    return this.loadingAfterListening;
  }

  /** Opens the videos folder (the content folder) in the system file manager: the desktop tray's menu entry. */
  openContentFolder(): Promise<void> {
    return this.container.resolve(FileManager).openFolder(this.settings.contentFolder);
  }

  /** Handles one command frame from a desktop bridge, as if it came over a WebSocket in the default dialect. */
  dispatch(frame: string): Promise<void> {
    return this.container.resolve(Dispatcher).handle(frame, this.container.resolve(DefaultDialect).current);
  }

  /** Closes the sockets, writes pending settings, closes the log. Safe to call twice. */
  async stop(): Promise<void> {
    this.logger.info('stopping');
    // A part half started would miss its stop below.
    await this.loadingAfterListening;
    this.container.resolve(StorageMonitor).stop();
    this.container.resolve(WindowsGameModeSetting).stop();
    this.container.resolve(KeybindingService).stop();
    this.container.resolve(Updater).stop();
    this.container.resolve(AutoRecorder).stop();
    await this.container.resolve(IntegrationHost).stop();
    this.container.resolve(GameDetector).stop();
    // Stopped where they are, to resume at the next start.
    await this.container
      .resolve(UploadService)
      .shutdown()
      .catch((error: unknown) => this.logger.error('uploads did not stop cleanly', { error }));
    await this.container
      .resolve(JobRunner)
      .shutdown()
      .catch((error: unknown) => this.logger.error('media jobs did not stop cleanly', { error }));
    await Promise.resolve()
      .then(() => this.container.resolve(RecorderService).shutdown())
      .catch((error: unknown) => this.logger.error('recorder did not shut down cleanly', { error }));
    await Promise.allSettled([
      this.container.resolve(HttpServer).close(),
      this.container.resolve(LegacyListener).close(),
      this.container.resolve(ReferenceMediaListener).close(),
    ]);
    this.container.resolve(StatePublisher).dispose();
    await this.container.resolve(SettingsStore).flush();
    await this.container.resolve(ContentLibrary).flush();
    await this.lock.release();
    this.logger.info('stopped');
    this.logger.close();
  }

  /** A crash mid-job leaves hidden temporary outputs and work folders; never a file under a final name. */
  private async removeUnfinishedOutputs(): Promise<void> {
    const { contentFolder, cacheFolder } = this.container.resolve(SettingsStore).current;
    const typeFolders = Object.values(TYPE_FOLDERS).map((folder) => path.join(contentFolder, folder));
    const removed = await removeUnfinishedOutputs(typeFolders, [clipWorkFolder(cacheFolder)]);
    if (removed.length > 0) this.logger.info('unfinished media job outputs removed', { removed });
  }

  private async startUp(): Promise<void> {
    this.logger.info('starting', { dataFolder: this.options.dataFolder, pid: process.pid, instanceId: this.lock.instanceId });
    if (this.lock.replaced) {
      this.logger.warn('the data folder lock of a Keyframe that did not stop was taken over', {
        lock: this.lock.file,
        previous: this.lock.replaced,
      });
    }
    const settings = this.container.resolve(SettingsStore);
    this.reportSettingsLoad(await settings.load());
    // State shows the features from here on; they announce, the publisher writes.
    const state = this.container.resolve(StatePublisher);
    state.follow({
      settings,
      integrationSettings: this.container.resolve(IntegrationSettingsSchemas),
      recorder: this.container.resolve(RecorderService),
      capabilities: this.container.resolve(MachineCapabilities),
      updater: this.container.resolve(Updater),
      storage: this.container.resolve(StorageMonitor),
    });
    const progress = this.container.resolve(StartupProgress);
    const migrations = this.container.resolve(DataMigrations);
    const listeningEarly = await migrations.anyPending();
    if (listeningEarly) await this.listenDuringMigrations(progress);
    await migrations.run();
    await this.removeUnfinishedOutputs();
    // Listed from the library index; the videos are checked once the service answers.
    await this.container.resolve(ContentLibrary).load({ checkVideosLater: true });
    await this.container.resolve(AccountService).load();
    // Before the start finishes (NewConnection is answered only then), so the prompt always waits for one.
    await this.container.resolve(RecoveryService).scan();
    await this.container.resolve(WindowsGameModeSetting).start();
    // Cached release notes and a pending update notice are in place before a frontend can ask.
    await this.container.resolve(Updater).start();
    if (!listeningEarly) await this.listen(progress);
    this.container.resolve(StartupGate).open();
    await this.container.resolve(LegacyListener).listen();
    await this.container.resolve(ReferenceMediaListener).start();
    this.logger.info('listening', { url: this.url });
    this.loadingAfterListening = this.loadAfterListening(progress).catch((error: unknown) =>
      this.logger.error('start-up did not finish: the service runs without what did not load', { error }),
    );
  }

  /**
   * Opens the socket: the UI's files and the media routes (which find nothing before the library loads), with the
   * parts still loading named first, so the first State says what is still loading.
   */
  private async listen(progress: StartupProgress): Promise<void> {
    const routes = this.container.resolve(HttpRoutes);
    routes.add('/', staticFiles(uiFolder(), missingUiPage));
    this.container.resolve(MediaRoutes).install(routes);
    this.container.resolve(InstanceRoutes).install(routes);
    this.container.resolve(StatePublisher).follow({ startup: progress });
    progress.announce(...LOADED_AFTER_LISTENING);
    await this.container.resolve(HttpServer).listen();
    await this.lock.setPort(this.port);
  }

  /**
   * Data migrations may take a while (a large library): the socket opens before they run, so a frontend sees them
   * (MigrationStatus) rather than a service that does not answer; its commands wait or are refused until the start
   * finishes (StartupGate).
   */
  private async listenDuringMigrations(progress: StartupProgress): Promise<void> {
    this.container.resolve(StartupGate).close('Keyframe is updating your library; try again in a moment');
    await this.listen(progress);
    this.logger.info('listening during data migrations', { url: this.url });
  }

  /** What a frontend does not need for its first answer: loaded while it already talks to the service. */
  private async loadAfterListening(progress: StartupProgress): Promise<void> {
    const host = this.container.resolve(IntegrationHost);
    this.container.resolve(StatePublisher).follow({ integrations: host });
    const loads = await Promise.allSettled([
      // After listening, so a frontend sees a first-run download's progress; before anything records.
      progress.run('captureEngine', () => this.container.resolve(MachineCapabilities).start()),
      progress.run('integrations', () => host.start()),
      // A stat of every video: seconds with tens of thousands of items.
      progress.run('library', async () => {
        await this.container.resolve(ContentLibrary).checkVideos();
        await this.container.resolve(StorageMonitor).start();
      }),
    ]);
    for (const load of loads)
      if (load.status === 'rejected') this.logger.error('a part of the service did not load', { error: load.reason });
    await progress.run('gameDetection', async () => {
      this.container.resolve(AutoRecorder).start();
      this.container.resolve(HighlightService); // subscribes to stopped recordings (auto-highlight)
      this.container.resolve(GameDetector).start();
      await this.container.resolve(KeybindingService).start();
    });
    await this.container.resolve(UploadService).resumeInterrupted();
    this.logger.info('ready', { url: this.url });
  }

  private reportSettingsLoad(report: SettingsLoadReport): void {
    const notifier = this.container.resolve(Notifier);
    if (report.brokenFileMovedTo) {
      notifier.showModal({
        title: 'Settings were reset',
        subtitle: 'settings.json could not be read',
        description: `Your settings file was damaged, so Keyframe started with default settings. The damaged file was kept as ${report.brokenFileMovedTo}.`,
        type: 'warning',
      });
    } else if (report.repairedFields.length > 0) {
      notifier.showModal({
        title: 'Some settings were reset',
        description: `These settings had invalid values and were reset to their defaults: ${report.repairedFields.join(', ')}.`,
        type: 'warning',
      });
    }
  }
}

function missingUiPage(): string {
  return (
    '<!doctype html><meta charset="utf-8"><title>Keyframe</title>' +
    '<body style="font-family:sans-serif;background:#111;color:#ddd;padding:2rem">' +
    '<h1>Keyframe is running</h1><p>The web UI has not been built: run <code>npm run build</code>. ' +
    'Frontends can connect to the WebSocket at this address.</p></body>'
  );
}
