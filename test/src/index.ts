// @keyframe/test: the test kit for Keyframe and its game integrations.
export { ProtocolClient, type CloseInfo, type ConnectOptions, type ReceivedEvent } from './kit/protocol-client.js';
export { ServiceProcess, type ServiceProcessOptions } from './kit/service-process.js';
export { serviceUnderTest, ServiceUnderTest } from './kit/service-under-test.js';
export { createTempFolder, type TempFolder } from './kit/temp-folder.js';
export { SeededRandom } from './kit/seeded-random.js';
export { FrameFuzzer, type FuzzFrame, type FuzzKind } from './kit/frame-fuzzer.js';
export { pingLatencyWatch, type PingLatencyReport, type PingLatencyWatch } from './kit/ping-latency-watch.js';
export { mebibytes, processSamplingSupported, sampleProcess, sampleUntil, type ProcessSample } from './kit/process-sampler.js';
export { filesBelow, folderChecksum, folderListing } from './kit/folder-checksum.js';
export { fileSha256, importGeneratedVideo } from './kit/imported-video.js';
export { longTestsSelected } from './kit/test-length.js';
export {
  importUploadableVideo,
  TusPlatform,
  type PlatformTokens,
  type RenewalRecord,
  type StoredUpload,
  type TusPlatformOptions,
  type TusRequestRecord,
} from './kit/tus-platform.js';
export { openUi, waitForCondition, CHROMIUM_PATH, SCREENSHOT_FOLDER, type UiOptions, type UiSession } from './kit/browser.js';
export {
  assertTapeMatchesExpected,
  compareBookmarks,
  expectedFileOf,
  itReplaysEveryTape,
  replayTape,
  writeTape,
  type EveryTapeOptions,
  type ExpectedBookmarks,
  type ReplayOptions,
} from './kit/tape-assertions.js';
export {
  IntegrationTestBed,
  RecordedBookmarks,
  RecordedHealth,
  RecordedLogger,
  TestGamePaths,
  type LoggedLine,
} from './kit/integration-test-bed.js';
// The SDK's stand-ins the test bed and the tape player share.
export { ManualClock, SCRIPTED_PUSH_TOKEN, ScriptedFeed, ScriptedFeeds, ScriptedRecorder } from '@keyframe/core/tapes';
export { IntegrationService, StandInGame, type IntegrationServiceOptions } from './kit/integration-end-to-end.js';
// Posting to a game push receiver as the game does (node:http, the data folder's token).
export { postAsGame, readPushToken, withPushToken, type GamePost } from '@keyframe/core/testing';
export { canMakeCertificates, selfSignedCertificate, type Certificate } from './kit/self-signed-certificate.js';
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
} from '@keyframe/core/tapes';
