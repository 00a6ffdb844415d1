// @keyframe/integration-testkit: what the tests of a Keyframe game integration need.
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
} from './tape-assertions.js';
export {
  IntegrationTestBed,
  RecordedBookmarks,
  RecordedHealth,
  RecordedLogger,
  TestGamePaths,
  type LoggedLine,
} from './integration-test-bed.js';
// The SDK's stand-ins the test bed and the tape player share.
export { ManualClock, SCRIPTED_PUSH_TOKEN, ScriptedFeed, ScriptedFeeds, ScriptedRecorder } from '@keyframe/core/tapes';
// Screen text drawn into frames and videos, for screenText integrations.
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
// Posting to a game push receiver as the game does (node:http, the data folder's token).
export { postAsGame, readPushToken, withPushToken, type GamePost } from '@keyframe/core/game-push';
// The real service end to end: one integration on, a stand-in game, and what it takes to drive it.
export { IntegrationService, StandInGame, type IntegrationServiceOptions } from './integration-end-to-end.js';
export { ServiceProcess, type ServiceProcessOptions } from './service-process.js';
export { ProtocolClient, type CloseInfo, type ConnectOptions, type ReceivedEvent } from './protocol-client.js';
export { createTempFolder, type TempFolder } from './temp-folder.js';
// A self-signed certificate for a stand-in game's local HTTPS server (made with openssl).
export { canMakeCertificates, selfSignedCertificate, type Certificate } from './self-signed-certificate.js';
// Recorded game data read where it lies (KEYFRAME_GAME_DATA), with a skip when it is absent.
export { gameData, GameData, GAME_DATA_VARIABLE } from './game-data.js';
