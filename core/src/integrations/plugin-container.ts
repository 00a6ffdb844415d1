// One DI container per integration, holding the services the SDK promises and nothing else.
import { container as rootContainer, type DependencyContainer, type InjectionToken } from 'tsyringe';
import type { Feeds as FeedsService } from '../sdk/feed-types.js';
import type { GameFiles as GameFilesService } from '../sdk/game-files.js';
import type {
  Bookmarks as BookmarksService,
  Clock as ClockService,
  GamePaths as GamePathsService,
  HealthReporter,
  IntegrationSettings as IntegrationSettingsService,
  PluginLogger,
  RecorderView,
} from '../sdk/game-integration.js';
import type { IntegrationClass } from './plugin-loader.js';
import { Bookmarks, Clock, Feeds, GameFiles, GamePaths, Health, IntegrationSettings, Logger, Recorder } from '../sdk/tokens.js';

export interface PluginServices {
  bookmarks: BookmarksService;
  recorder: RecorderView;
  settings: IntegrationSettingsService;
  feeds: FeedsService;
  clock: ClockService;
  logger: PluginLogger;
  gamePaths: GamePathsService;
  gameFiles: GameFilesService;
  health: HealthReporter;
}

const TOKENS: { [K in keyof PluginServices]: InjectionToken<PluginServices[K]> } = {
  bookmarks: Bookmarks,
  recorder: Recorder,
  settings: IntegrationSettings,
  feeds: Feeds,
  clock: Clock,
  logger: Logger,
  gamePaths: GamePaths,
  gameFiles: GameFiles,
  health: Health,
};

/** Instantiates an integration in a fresh child container that provides `services` under the SDK tokens. */
export function instantiateIntegration(
  integrationClass: IntegrationClass,
  services: PluginServices,
): { container: DependencyContainer; instance: InstanceType<IntegrationClass> } {
  const container = rootContainer.createChildContainer();
  for (const name of Object.keys(TOKENS) as (keyof PluginServices)[]) {
    container.registerInstance(TOKENS[name] as InjectionToken<unknown>, services[name]);
  }
  return { container, instance: container.resolve(integrationClass as InjectionToken<InstanceType<IntegrationClass>>) };
}

export const systemClock: ClockService = { now: () => new Date() };
