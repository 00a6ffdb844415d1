// @keyframe/test: the repository's own test tooling (private). What a plugin's tests need is in
// @keyframe/integration-testkit.
export { serviceUnderTest, ServiceUnderTest } from './kit/service-under-test.js';
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
export { patchedState, untilPatched } from './kit/patched-state.js';
