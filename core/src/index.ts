// @keyframe/core: the SDK for game integrations. Everything a plugin may use is exported here;
// anything else in this package is internal and may change.
export type {
  GameIntegration,
  DetectedGame,
  BookmarkRequest,
  RecordingInfo,
  RecorderView,
  PluginLogger,
  HealthReporter,
  DataExpectation,
  Bookmarks as BookmarksService,
  Clock as ClockService,
  GamePaths as GamePathsService,
  IntegrationSettings as IntegrationSettingsService,
} from './sdk/game-integration.js';
export { Bookmarks, Clock, Feeds, GameFiles, GamePaths, Health, IntegrationSettings, Logger, Recorder } from './sdk/tokens.js';
export { defineSettings, Type, type SettingsValues } from './sdk/integration-settings.js';
export {
  DiskGameFiles,
  GameFilesReader,
  isMissingFileError,
  type GameFileEntry,
  type GameFiles as GameFilesService,
} from './sdk/game-files.js';
export { parseVdf, vdfValue, type VdfObject } from './sdk/steam/vdf.js';
export { SteamInstallation, type SteamInstallationOptions, type SteamUser } from './sdk/steam/steam-installation.js';
export {
  FEED_KINDS,
  type ConnectionChange,
  type Feed,
  type FeedHeaders,
  type FeedInputs,
  type FeedKind,
  type Feeds as FeedsService,
  type FolderInput,
  type HttpPushInput,
  type HttpPushOptions,
  type HttpPushRefusal,
  type LoopbackTlsOptions,
  type PollInput,
  type PollOptions,
  type ReconnectOptions,
  type ScreenTextInput,
  type ScreenTextOptions,
  type TailInput,
  type TailOptions,
  type TcpInput,
  type TcpOptions,
  type UdpInput,
  type UdpOptions,
  type WatchFolderOptions,
  type WebSocketInput,
  type WebSocketOptions,
} from './sdk/feed-types.js';
export type { BookmarkType } from './protocol/index.js';
export {
  GameConfigFile,
  type GameConfigFileOptions,
  type GameConfigInstallReport,
  type GameConfigInstallResult,
} from './sdk/game-config-file.js';
export {
  ScreenTextMatcher,
  type ScreenTextEvent,
  type ScreenTextKeyword,
  type ScreenTextMatcherOptions,
} from './sdk/screen-text-matcher.js';
export { containsKeyword, editDistance } from './sdk/keyword-match.js';
export { openJsonPushFeed, pushPortOf, readJsonPush, type JsonPushFeedOptions } from './sdk/json-push-feed.js';
export { ScreenTextBookmarks, type ScreenTextBookmarksOptions, type ScreenTextBookmarksServices } from './sdk/screen-text-bookmarks.js';
