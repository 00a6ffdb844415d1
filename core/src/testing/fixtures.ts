// Shared by the core's unit tests: an event sink that keeps what is sent, the check for a
// `CommandError` refusal, ffmpeg as the service finds it (found and
// probed, with no display so that the machine's own screen and devices stay out of the results), x264 video
// settings at a constant quality, the media parts of the service resolved from createTestApp in a temporary folder, and
// generated test videos with several audio tracks.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CommandError } from '../protocol/refusal.js';
import { MachineCapabilities } from '../capabilities/machine-capabilities.js';
import { CaptureSources, SyntheticCaptureSource, type CaptureFormat, type CaptureSource } from '../media/capture-source.js';
import { FfmpegToolbox, FfmpegToolboxConfig } from '../media/ffmpeg-toolbox.js';
import type { VideoEncoderSettings } from '../media/video-encoder.js';
import type { EventContent, EventName, RejectionCode, Settings } from '../protocol/index.js';
import { ServiceOptions } from '../service-options.js';
import { ContentIngest } from '../library/content-ingest.js';
import { JobRunner } from '../jobs/job-runner.js';
import { ContentLibrary } from '../library/content-library.js';
import { SettingsStore } from '../settings/settings-store.js';
import { StatePublisher } from '../state/state-publisher.js';
import { Logger } from '../support/logger.js';
import { FrameDemand } from '../recording/frame-demand.js';
import { RecorderService } from '../recording/recorder-service.js';
import { createTestApp, headlessToolboxConfig, type Override, type Overrides, type TestApp } from './test-app.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';

export { allocatedFile } from './allocated-file.js';
export { folderSnapshot } from './folder-snapshot.js';
export { initialState } from '../state/state-publisher.js';
export { makeReadOnly, undoReadOnly } from './read-only-folder.js';
export { createTestApp, type Override, type Overrides, type TestApp, type TestAppOptions } from './test-app.js';

/** Keeps every event (a copy, as it was when sent); `isConnected` and `bufferedAmount` are for tests to set. */
export class RecordedEvents implements EventSink {
  readonly sent: { method: EventName; content: unknown }[] = [];
  isConnected = true;
  bufferedAmount = 0;

  send<E extends EventName>(method: E, content: EventContent<E>): void {
    this.sent.push({ method, content: structuredClone(content) });
  }

  of<E extends EventName>(method: E): EventContent<E>[] {
    return this.sent.filter((event) => event.method === method).map((event) => event.content as EventContent<E>);
  }

  methods(): EventName[] {
    return this.sent.map((event) => event.method);
  }
}

/** The `CommandError` the promise rejects with (with `code` when given); fails the test if it resolves. */
export async function commandRejection(promise: Promise<unknown> | void, code?: RejectionCode): Promise<CommandError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(CommandError);
    if (code) expect((error as CommandError).code).to.equal(code);
    return error as CommandError;
  }
  throw new Error('expected a CommandError');
}

/** Always the same capture source (settable), whatever the machine has. */
export class FixedSources extends CaptureSources {
  constructor(public source: CaptureSource = new SyntheticCaptureSource()) {
    super(new Logger([]));
  }

  override select(): CaptureSource {
    return this.source;
  }
}

/** A toolbox that sees this process's environment without a display. */
function headlessToolbox(home: string, logger: Logger): FfmpegToolbox {
  return new FfmpegToolbox(headlessToolboxConfig(home), logger);
}

/** ffmpeg found and probed (a download would go below `dataFolder`); for work that needs only binaries. */
export async function startedToolbox(dataFolder: string, logger = new Logger([])): Promise<FfmpegToolbox> {
  const toolbox = headlessToolbox(dataFolder, logger);
  await toolbox.load({ downloadFolder: path.join(dataFolder, 'capture-engine') });
  return toolbox;
}

/** A toolbox loaded on a machine with no ffmpeg at all (nothing in FFMPEG_PATH, no package, nothing on PATH, no download). */
export async function toolboxWithoutFfmpeg(folder: string, logger = new Logger([])): Promise<FfmpegToolbox> {
  const toolbox = new FfmpegToolbox(
    Object.assign(new FfmpegToolboxConfig(), {
      environment: { platform: process.platform, home: folder, variables: { PATH: '' } },
      loadPackage: (specifier: string) => {
        throw new Error(`Cannot find module '${specifier}'`);
      },
    }),
    logger,
  );
  await toolbox.load({ downloadFolder: path.join(folder, 'no-download') });
  return toolbox;
}

/** x264 at `crf`, the size and rate of `format`: what the recorder asks for with default settings and no GPU. */
export function crfVideo(format: CaptureFormat, crf: number): VideoEncoderSettings {
  return {
    ...format,
    encoder: 'cpu',
    codec: null,
    rateControl: 'CRF',
    crfValue: crf,
    cqLevel: crf,
    bitrate: 10,
    minBitrate: 8,
    maxBitrate: 12,
  };
}

/**
 * The parts of the service that media work needs, resolved from the app's registrations (`createTestApp`) in a new
 * temporary folder: settings (defaults plus `changes`; videos in `<folder>/Videos`), State, the library (loaded),
 * the started capabilities (State filled) and their ffmpeg toolbox, the job runner and the way into the library;
 * `app` resolves anything else with the same `overrides`. `dispose` stops the jobs and removes the folder.
 */
export interface MediaWorld {
  app: TestApp;
  folder: string;
  events: RecordedEvents;
  logger: Logger;
  options: ServiceOptions;
  settings: SettingsStore;
  state: StatePublisher;
  library: ContentLibrary;
  toolbox: FfmpegToolbox;
  jobs: JobRunner;
  ingest: ContentIngest;
  /** The machine's capabilities, started (ffmpeg probed, devices detected). */
  capabilities: MachineCapabilities;
  dispose(): Promise<void>;
}

export interface RecorderParts {
  sources?: CaptureSources;
  toolbox?: FfmpegToolbox;
  frameDemand?: FrameDemand;
}

/** A new recorder over the world's services (synthetic capture unless `sources` says otherwise), its events shown in the world's State. */
export function createRecorder(world: MediaWorld, parts: RecorderParts = {}): RecorderService {
  const recorder = world.app.fresh(RecorderService, [
    [CaptureSources, parts.sources ?? new FixedSources()],
    [FfmpegToolbox, parts.toolbox ?? world.toolbox],
    [FrameDemand, parts.frameDemand ?? new FrameDemand()],
  ]);
  world.state.follow({ recorder });
  return recorder;
}

export async function createMediaWorld<const T extends readonly unknown[] = []>(
  prefix: string,
  changes: Partial<Settings> = {},
  overrides?: Overrides<T>,
): Promise<MediaWorld> {
  const folder = await mkdtemp(path.join(os.tmpdir(), prefix));
  const events = new RecordedEvents();
  const withEvents: readonly Override<unknown>[] = [[EVENT_SINK, events], ...((overrides ?? []) as readonly Override<unknown>[])];
  const app = await createTestApp({ dataFolder: folder, settings: changes, overrides: withEvents });
  const state = app.resolve(StatePublisher);
  const library = app.resolve(ContentLibrary);
  const capabilities = app.resolve(MachineCapabilities);
  state.follow({ capabilities });
  await library.load();
  await capabilities.start();
  const jobs = app.resolve(JobRunner);
  return {
    app,
    folder,
    events,
    logger: app.resolve(Logger),
    options: app.resolve(ServiceOptions),
    settings: app.resolve(SettingsStore),
    state,
    library,
    toolbox: capabilities.toolbox,
    jobs,
    capabilities,
    ingest: app.resolve(ContentIngest),
    async dispose() {
      await jobs.shutdown();
      await app.dispose();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

export interface TestVideo {
  seconds: number;
  width?: number;
  height?: number;
  frameRate?: number;
  /** One tone per audio track (Hz); track titles are `Track 1`, `Track 2`, … Default: one 440 Hz track. */
  tones?: readonly number[];
  /** Seconds between keyframes; default 1, as Keyframe records. */
  keyframeSeconds?: number;
}

/** Writes an H.264/AAC MP4 (moving test pattern, one sine tone per track) with real ffmpeg. */
export async function generateVideo(ffmpegPath: string, target: string, video: TestVideo): Promise<void> {
  const { seconds, width = 640, height = 360, frameRate = 30, tones = [440], keyframeSeconds = 1 } = video;
  const gop = String(Math.max(1, Math.round(frameRate * keyframeSeconds)));
  const args = [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${width}x${height}:rate=${frameRate}:duration=${seconds}`,
    ...tones.flatMap((frequency) => ['-f', 'lavfi', '-i', `sine=frequency=${frequency}:sample_rate=48000:duration=${seconds}`]),
    '-map',
    '0:v',
    ...tones.flatMap((_, index) => ['-map', `${index + 1}:a`]),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-g',
    gop,
    '-keyint_min',
    gop,
    '-sc_threshold',
    '0',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-ac',
    '2',
    ...tones.flatMap((_, index) => [
      `-metadata:s:a:${index}`,
      `title=Track ${index + 1}`,
      `-metadata:s:a:${index}`,
      `handler_name=Track ${index + 1}`,
    ]),
    '-movflags',
    '+faststart',
    '-y',
    target,
  ];
  await new Promise<void>((resolve, reject) => {
    execFile(ffmpegPath, args, (error, _stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve()));
  });
}
