// `@keyframe/core/internal`: what the bench (bench/) reaches inside the service for. NOT a public API: it changes with
// the code, without notice and without an API report. Programs that embed Keyframe use `@keyframe/core/host`; plugins
// use `@keyframe/core`. Services are resolved, never constructed by hand: from a running service with `serviceOf`,
// or from the app's registrations with `createTestApp` (`@keyframe/core/testing`).
import 'reflect-metadata';
import type { InjectionToken } from 'tsyringe';
import { containerOf, type KeyframeService } from './keyframe-service.js';

/** One of a running service's own singletons (its library, State, ffmpeg toolbox, …). */
export function serviceOf<T>(service: KeyframeService, token: InjectionToken<T>): T {
  return containerOf(service).resolve(token);
}

// Services the bench resolves.
export { ClipService } from '../jobs/clip/clip-service.js';
export { JobRunner } from '../jobs/job-runner.js';
export { ContentLibrary } from '../library/content-library.js';
export { FfmpegToolbox, type FfmpegTools } from '../media/ffmpeg-toolbox.js';
export { EVENT_SINK, type StateRevision } from '../protocol/event-sink.js';
export { SettingsStore } from '../settings/settings-store.js';
export { STATE_BURST_MS, StatePublisher } from '../state/state-publisher.js';
// The service's own ffmpeg command lines, so that the bench's bare-ffmpeg baselines run the same work.
export { chooseClipEncoder, encodeArgs, type ClipSource } from '../media/clip-encoding.js';
export { bookmarkMoments, planHighlight, type PlannedWindow } from '../media/highlight-plan.js';
export { probeMedia } from '../media/probe.js';
export { compressionArgs, compressionEncoder } from '../jobs/compression/compression-service.js';
// On-screen text recognition.
export { decodePng } from '../feeds/screen-text/png.js';
export { ScreenTextReader } from '../feeds/screen-text/screen-text-reader.js';
export { createOfflineWorker, SharedTextRecognizer } from '../feeds/screen-text/text-recognizer.js';
