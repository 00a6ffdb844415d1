// The DI tokens an integration's constructor can ask for, e.g. `@inject(Bookmarks) bookmarks: Bookmarks`.
// Each integration gets its own child container, so these resolve to its own instances.
import type { InjectionToken } from 'tsyringe';
import type { Feeds as FeedsService } from './feed-types.js';
import type { GameFiles as GameFilesService } from './game-files.js';
import type {
  Bookmarks as BookmarksService,
  Clock as ClockService,
  GamePaths as GamePathsService,
  HealthReporter,
  IntegrationSettings as IntegrationSettingsService,
  PluginLogger,
  RecorderView,
} from './game-integration.js';

export const Bookmarks: InjectionToken<BookmarksService> = Symbol.for('keyframe.Bookmarks');
export const Recorder: InjectionToken<RecorderView> = Symbol.for('keyframe.Recorder');
export const IntegrationSettings: InjectionToken<IntegrationSettingsService> = Symbol.for('keyframe.IntegrationSettings');
export const Feeds: InjectionToken<FeedsService> = Symbol.for('keyframe.Feeds');
export const Clock: InjectionToken<ClockService> = Symbol.for('keyframe.Clock');
export const Logger: InjectionToken<PluginLogger> = Symbol.for('keyframe.Logger');
export const GamePaths: InjectionToken<GamePathsService> = Symbol.for('keyframe.GamePaths');
export const Health: InjectionToken<HealthReporter> = Symbol.for('keyframe.Health');
export const GameFiles: InjectionToken<GameFilesService> = Symbol.for('keyframe.GameFiles');
