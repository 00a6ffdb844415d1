// Tapes for plugin authors and tools: read, write and replay recorded game data.
import 'reflect-metadata';
export {
  readTape,
  isFeedEntry,
  isGameFileEntry,
  tapeFilesFolder,
  type Tape,
  type TapeEntry,
  type TapeHeader,
  type FeedEntry,
  type GameFileState,
  type GameFileTapeEntry,
} from './feeds/tape/tape-format.js';
export { gamePathsIn } from './feeds/tape/game-file-locations.js';
export { TapeWriter } from './feeds/tape/tape-writer.js';
export { playTape, TapeHandlerError, type PlayedBookmark, type PlayOptions, type TapePlayback } from './integrations/tape-player.js';
export { inspectPackage, type DiscoveredPlugin } from './integrations/plugin-discovery.js';
export { checkCompatibility, type Compatibility, type PackageRanges } from './integrations/plugin-compatibility.js';
export { loadIntegrationClass, type IntegrationClass } from './integrations/plugin-loader.js';
export { GatedFeeds, type GatedFeedsOptions } from './integrations/gated-feeds.js';
export { SilenceWatch } from './integrations/silence-watch.js';
// The SDK's stand-ins, shared by the tape player and the test kit's IntegrationTestBed.
export { ManualClock } from './integrations/fakes/manual-clock.js';
export { ScriptedRecorder, type ScriptedRecording } from './integrations/fakes/scripted-recorder.js';
export { ScriptedSettings } from './integrations/fakes/scripted-settings.js';
export {
  SCRIPTED_PUSH_TOKEN,
  ScriptedFeed,
  ScriptedFeeds,
  type ScreenTextReading,
  type ScriptedFeedsOptions,
} from './integrations/fakes/scripted-feeds.js';
export {
  writeScreenTextTape,
  writeTextFrames,
  writeTextVideo,
  type Cover,
  type DrawnText,
  type ScreenTextTapeSpec,
  type TextBackground,
  type TextScene,
  type WrittenFrame,
} from './feeds/screen-text/text-frames.js';
