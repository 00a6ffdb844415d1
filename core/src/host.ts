// For programs that embed the service (a desktop shell, the benchmarks): start it in-process and
// hand it command strings from a bridge such as `window.external.sendMessage`.
import 'reflect-metadata';
export { KeyframeService, type StartOptions } from './app/keyframe-service.js';
export { ServiceOptions, DEFAULT_PORT, DEFAULT_LEGACY_PORT } from './service-options.js';
export { StateStore } from './state/state-store.js';
export { projectContent } from './app/content-projection.js';
// The ffmpeg the service runs (`requireFfmpeg`), for the bench's bare-ffmpeg baselines.
export { FfmpegToolbox, type FfmpegTools } from './media/ffmpeg-toolbox.js';
// In-process clip jobs for the bench.
export { ClipService } from './jobs/clip-service.js';
export { ContentArtwork } from './library/content-artwork.js';
export { MediaJobs } from './jobs/media-jobs.js';
export { ContentLibrary } from './library/content-library.js';
export { ContentLocator } from './library/content-locator.js';
export { SettingsStore } from './settings/settings-store.js';
export { Logger as ServiceLogger } from './support/logger.js';
// The service's own ffmpeg command lines, so that the bench's bare-ffmpeg baselines run the same work.
export { probeMedia } from './media/probe.js';
export { chooseClipEncoder, encodeArgs, type ClipSource } from './media/clip-encoding.js';
export { compressionArgs, compressionEncoder } from './jobs/compression-service.js';
export { bookmarkMoments, planHighlight } from './media/highlight-plan.js';
export { highlightArgs } from './jobs/highlight-service.js';
// On-screen text recognition, for the bench.
export { ScreenTextReader } from './feeds/screen-text/screen-text-reader.js';
export { createOfflineWorker, SharedTextRecognizer } from './feeds/screen-text/text-recognizer.js';
export { decodePng } from './feeds/screen-text/png.js';
