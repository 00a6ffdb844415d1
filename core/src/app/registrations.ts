// What the service is made of: each feature's classes, the links between features, and the adapters to the
// machine. The app (keyframe-service.ts) and the tests (testing/test-app.ts) build their containers from here,
// so a test resolves exactly what the service runs, with only the tokens it overrides replaced.
import type { DependencyContainer, InjectionToken } from 'tsyringe';
import { AccountService } from '../accounts/account-service.js';
import { DiscordSignIn } from '../accounts/discord-sign-in.js';
import { TokenStore } from '../accounts/token-store.js';
import { MachineCapabilities } from '../capabilities/machine-capabilities.js';
import { AccountCommands } from '../commands/account-commands.js';
import { ClipCommands } from '../commands/clip-commands.js';
import { COMMAND_GROUP, type CommandGroup } from '../commands/command-handlers.js';
import { ConnectionCommands } from '../commands/connection-commands.js';
import { ContentCommands } from '../commands/content-commands.js';
import { DesktopCommands } from '../commands/desktop-commands.js';
import { EXECUTABLE_PICKER, GameCommands } from '../commands/game-commands.js';
import { HighlightCommands } from '../commands/highlight-commands.js';
import { IntegrationCommands } from '../commands/integration-commands.js';
import { MediaCommands } from '../commands/media-commands.js';
import { MigrationCommands } from '../commands/migration-commands.js';
import { RecordingCommands } from '../commands/recording-commands.js';
import { RecoveryCommands } from '../commands/recovery-commands.js';
import { SettingsCommands } from '../commands/settings-commands.js';
import { StorageCommands } from '../commands/storage-commands.js';
import { UpdateCommands } from '../commands/update-commands.js';
import { UploadCommands } from '../commands/upload-commands.js';
import { GameCatalog } from '../games/game-catalog.js';
import { GameDetector, PROCESS_LISTER, systemProcessLister } from '../games/game-detector.js';
import { KEY_HOOK_LOADER, nativeKeyHookLoader } from '../hotkeys/key-hook.js';
import { HOTKEY_BOOKMARKS, HOTKEY_RECORDER, KeybindingService } from '../hotkeys/keybinding-service.js';
import { ClipService } from '../jobs/clip/clip-service.js';
import { CompressionService } from '../jobs/compression/compression-service.js';
import { HighlightService } from '../jobs/highlight/highlight-service.js';
import { ImportService, MULTI_FILE_PICKER } from '../jobs/import/import-service.js';
import { JobRunner } from '../jobs/job-runner.js';
import { ContentIngest } from '../library/content-ingest.js';
import { ContentItemQueue } from '../library/content-item-queue.js';
import { ContentLibrary } from '../library/content-library.js';
import { ContentMigration } from '../library/content-migration.js';
import { DataMigrations } from '../library/data-migrations.js';
import { FOLDER_PICKER, LibraryLocations } from '../library/library-locations.js';
import { CAPTURE_CAPABILITIES, CaptureSources } from '../media/capture-source.js';
import { FfmpegToolbox } from '../media/ffmpeg-toolbox.js';
import { DESKTOP_TOOLS, systemDesktopTools } from '../platform/desktop-tools.js';
import { browserTab, DESKTOP_WINDOW, type DesktopWindow } from '../platform/desktop-window.js';
import { pickFiles, pickFolder } from '../platform/native-picker.js';
import { systemGameModeRegistry } from '../platform/windows-game-mode.js';
import { finishedRecordings, integrationHostEnvironment } from '../integrations/host-environment.js';
import { INTEGRATION_HOST_ENVIRONMENT, IntegrationHost } from '../integrations/integration-host.js';
import { EVENT_SINK } from '../protocol/event-sink.js';
import { AutoRecorder } from '../recording/auto-recorder.js';
import { BookmarkService, FINISHED_RECORDINGS } from '../recording/bookmark-service.js';
import { FrameDemand } from '../recording/frame-demand.js';
import { RecorderService } from '../recording/recorder-service.js';
import { ReplaySaver } from '../recording/replay-saver.js';
import { SessionSaver } from '../recording/session-saver.js';
import { RecoveryService } from '../recording/recovery-service.js';
import { ServiceOptions } from '../service-options.js';
import { RECORDING_ACTIVITY, SettingsService } from '../settings/settings-service.js';
import { IntegrationSettingsSchemas } from '../settings/integration-settings-schemas.js';
import { SettingsStore } from '../settings/settings-store.js';
import { GAME_MODE_REGISTRY, WindowsGameModeSetting } from '../settings/windows-game-mode-setting.js';
import { Notifier } from '../notices/notifier.js';
import { StatePublisher } from '../state/state-publisher.js';
import { STORAGE_MONITOR_OPTIONS, StorageMonitor, storageMonitorOptions } from '../storage/storage-monitor.js';
import { StorageWarnings } from '../storage/storage-warnings.js';
import { Logger } from '../support/logger.js';
import { StartupGate } from '../support/startup-gate.js';
import { StartupProgress } from '../support/startup-progress.js';
import { ConnectionHub } from '../transport/connection-hub.js';
import { Dispatcher } from '../transport/dispatcher.js';
import { HttpRoutes } from '../transport/http-routes.js';
import { HttpServer } from '../transport/http-server.js';
import { LegacyListener } from '../transport/legacy-listener.js';
import { DefaultDialect } from '../transport/default-dialect.js';
import { MediaRoutes } from '../transport/media-routes.js';
import { OriginPolicy } from '../transport/origin-policy.js';
import { ReferenceMediaListener } from '../transport/reference-media-listener.js';
import { UPDATE_OPTIONS, updateOptions } from '../updates/update-options.js';
import { UpdateStatus } from '../updates/update-status.js';
import { Updater } from '../updates/updater.js';
import { UploadService } from '../uploads/upload-service.js';

/**
 * Each feature's services, one singleton per class. A feature's registration is this list and nothing more,
 * so it lives here rather than in a `register.ts` per folder; the arrows between features are in `linkFeatures`.
 */
const FEATURES: Record<string, InjectionToken<object>[]> = {
  settings: [SettingsStore, SettingsService, IntegrationSettingsSchemas, WindowsGameModeSetting],
  state: [StatePublisher, StartupProgress, StartupGate],
  notices: [Notifier],
  games: [GameCatalog, GameDetector],
  transport: [
    ConnectionHub,
    DefaultDialect,
    Dispatcher,
    OriginPolicy,
    HttpRoutes,
    HttpServer,
    LegacyListener,
    MediaRoutes,
    ReferenceMediaListener,
  ],
  capabilities: [FfmpegToolbox, CaptureSources, MachineCapabilities],
  library: [ContentLibrary, ContentItemQueue, ContentIngest, LibraryLocations, ContentMigration, DataMigrations],
  jobs: [JobRunner, ClipService, CompressionService, ImportService, HighlightService],
  recording: [RecorderService, FrameDemand, ReplaySaver, SessionSaver, BookmarkService, AutoRecorder, RecoveryService],
  integrations: [IntegrationHost],
  storage: [StorageWarnings, StorageMonitor],
  updates: [UpdateStatus, Updater],
  hotkeys: [KeybindingService],
  accounts: [TokenStore, AccountService, DiscordSignIn],
  uploads: [UploadService],
};

/** One per command family; the dispatcher collects them all through `COMMAND_GROUP`. */
const COMMAND_GROUPS: InjectionToken<CommandGroup>[] = [
  ConnectionCommands,
  SettingsCommands,
  RecordingCommands,
  GameCommands,
  RecoveryCommands,
  StorageCommands,
  ClipCommands,
  MediaCommands,
  ContentCommands,
  HighlightCommands,
  MigrationCommands,
  UpdateCommands,
  DesktopCommands,
  AccountCommands,
  UploadCommands,
  IntegrationCommands,
];

/** What the container is given from outside: how the service was started and where it logs. */
export interface AppBindings {
  options: ServiceOptions;
  logger: Logger;
}

/** Every service and command group of Keyframe, linked to each other; the machine adapters are registered apart. */
export function registerServices(container: DependencyContainer, { options, logger }: AppBindings): void {
  container.registerInstance(ServiceOptions, options);
  container.registerInstance(Logger, logger);
  for (const services of Object.values(FEATURES)) {
    for (const service of services) container.registerSingleton(service, service);
  }
  for (const group of COMMAND_GROUPS) {
    container.registerSingleton(group, group);
    container.register<CommandGroup>(COMMAND_GROUP, { useToken: group });
  }
  linkFeatures(container);
}

/** The ports one feature declares and another feature fills. */
function linkFeatures(container: DependencyContainer): void {
  container.register(EVENT_SINK, { useToken: ConnectionHub });
  container.register(CAPTURE_CAPABILITIES, { useToken: MachineCapabilities });
  container.register(HOTKEY_RECORDER, { useToken: RecorderService });
  container.register(HOTKEY_BOOKMARKS, { useToken: BookmarkService });
  container.register(RECORDING_ACTIVITY, { useToken: RecorderService });
  container.register(FINISHED_RECORDINGS, { useFactory: (scope) => finishedRecordings(scope.resolve(ContentLibrary)) });
  container.register(INTEGRATION_HOST_ENVIRONMENT, { useFactory: integrationHostEnvironment });
  // State.content follows the library from its creation (the other features are followed as the service starts).
  container.afterResolution(
    ContentLibrary,
    (_token, library) => {
      if (!Array.isArray(library)) container.resolve(StatePublisher).follow({ library });
    },
    { frequency: 'Once' },
  );
}

/**
 * The adapters to this machine and process: native file dialogs, the process list, desktop tools, the global key
 * hook, the window around the UI and the options read from the environment. Tests register inert ones instead.
 */
export function registerMachine(container: DependencyContainer, desktopWindow: DesktopWindow = browserTab): void {
  container.register(EXECUTABLE_PICKER, { useValue: pickFiles });
  container.register(MULTI_FILE_PICKER, { useValue: pickFiles });
  container.register(FOLDER_PICKER, { useValue: pickFolder });
  container.register(PROCESS_LISTER, { useValue: systemProcessLister() });
  container.register(DESKTOP_TOOLS, { useValue: systemDesktopTools() });
  container.register(DESKTOP_WINDOW, { useValue: desktopWindow });
  container.register(KEY_HOOK_LOADER, { useValue: nativeKeyHookLoader() });
  container.register(UPDATE_OPTIONS, { useValue: updateOptions() });
  container.register(STORAGE_MONITOR_OPTIONS, { useValue: storageMonitorOptions() });
  container.register(GAME_MODE_REGISTRY, { useValue: systemGameModeRegistry() });
}
