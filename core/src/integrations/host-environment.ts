// Connects the integration host to the rest of the service: the recorder, bookmarks, live feeds,
// game paths and the plugin folders.
import type { DependencyContainer } from 'tsyringe';
import { dataFolderPushToken, LiveFeeds } from '../feeds/live/index.js';
import { SharedTextRecognizer } from '../feeds/screen-text/text-recognizer.js';
import { SystemGamePaths } from './system-game-paths.js';
import { ServiceOptions } from '../service-options.js';
import { BookmarkService, type FinishedRecordingBookmarks } from '../recording/bookmark-service.js';
import { fromWireBookmark } from '../library/content-item.js';
import { ContentLibrary } from '../library/content-library.js';
import { FrameDemand } from '../recording/frame-demand.js';
import { RecorderService } from '../recording/recorder-service.js';
import type { RecorderView } from '../sdk/game-integration.js';
import type { IntegrationHostEnvironment } from './integration-host.js';
import { approvalsFile, PluginApprovals } from './plugin-approvals.js';
import { PluginFolderWatch } from './plugin-folder-watch.js';
import { defaultPluginFolders, userPluginFolder } from './plugin-folders.js';
import { shareHostModules } from './shared-modules.js';
import { isWithin } from '../support/paths.js';

const DEFAULT_HOOK_DEADLINE_MS = 10_000;

/** What plugins see of the recorder: when a recording started, for which game. */
export function recorderView(recorder: RecorderService): RecorderView {
  const info = () => recorder.current && { startedAt: recorder.current.startedAt, game: recorder.current.game };
  return {
    get current() {
      return info();
    },
    onStarted: (listener) => recorder.onStarted((recording) => listener({ startedAt: recording.startedAt, game: recording.game })),
    onStopped: (listener) => recorder.onStopped((recording) => listener({ startedAt: recording.startedAt, game: recording.game })),
  };
}

/** Finished sessions as bookmarks need them: found by the time span they cover, updated in their sidecar. */
export function finishedRecordings(library: ContentLibrary): FinishedRecordingBookmarks {
  return {
    findCovering: (at) => {
      const record = library.findCovering(at);
      return record?.recordedFrom ? { id: record.id, startedAt: record.recordedFrom } : undefined;
    },
    addBookmark: async (id, bookmark) => {
      const record = library.get(id);
      if (record) await library.update(id, { bookmarks: [...record.bookmarks, fromWireBookmark(bookmark)] });
    },
  };
}

export function integrationHostEnvironment(
  container: DependencyContainer,
  variables: NodeJS.ProcessEnv = process.env,
): IntegrationHostEnvironment {
  const options = container.resolve(ServiceOptions);
  const bookmarks = () => container.resolve(BookmarkService);
  const recorder = container.resolve(RecorderService);
  // One OCR worker for every integration that reads on-screen text, alive while one of them does.
  const recognizer = new SharedTextRecognizer();
  // One token for every integration of this data folder: the games' configs hold it across restarts.
  const pushToken = dataFolderPushToken(options.dataFolder);
  const deadline = Number(variables.KEYFRAME_HOOK_DEADLINE_MS);
  const userPlugins = userPluginFolder(options.dataFolder);
  return {
    searchFolders: defaultPluginFolders(options.dataFolder, variables),
    approvals: new PluginApprovals(approvalsFile(options.dataFolder)),
    recorder: recorderView(recorder),
    frameDemand: container.resolve(FrameDemand),
    bookmarksFor: (key) => ({ add: (request) => bookmarks().add(request, `integration:${key}`) }),
    feedsFor: (_key, logger, observe, health) =>
      new LiveFeeds({
        logger,
        observe,
        pushToken,
        screenText: { frames: () => recorder.screenFrames, recognizer, degraded: (reason) => health.degraded(reason) },
      }),
    gamePaths: new SystemGamePaths(variables),
    // Only for a plugin of the user's folder: the module hook starts a thread (~50 ms of the main thread's
    // time) and then sees every import.
    beforeImport: (entry) => {
      if (isWithin(userPlugins, entry)) shareHostModules([userPlugins]);
    },
    hookDeadlineMs: Number.isFinite(deadline) && deadline > 0 ? deadline : DEFAULT_HOOK_DEADLINE_MS,
    restartDelayMs: (attempt) => 1000 * 2 ** (attempt - 1),
    watchPluginChanges: async (changed) => {
      const watch = await PluginFolderWatch.start({
        pluginFolder: userPluginFolder(options.dataFolder),
        approvalsFile: approvalsFile(options.dataFolder),
        changed,
      });
      return () => watch.close();
    },
  };
}
