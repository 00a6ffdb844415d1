// Clips from a 10 min 1080p file (generated once: ultrafast, 10 fps, a keyframe every second, two
// audio tracks), with the service's classes in-process:
// - a 30 s clip starting on a keyframe (fast path) against bare `ffmpeg -ss -t -c copy` of the span;
// - a 30 s smart cut (start between keyframes) against a full re-encode of the same span;
// - a 30 s clip that must re-encode (its second audio track muted) against bare ffmpeg running the
//   service's own command line for it (same pieces, encoder, quality and filters).
import 'reflect-metadata';
import {
  chooseClipEncoder,
  ClipService,
  ContentLibrary,
  encodeArgs,
  EVENT_SINK,
  FfmpegToolbox,
  JobRunner,
  probeMedia,
  SettingsStore,
  type ClipSource,
} from '@keyframe/core/internal';
import type { Codec } from '@keyframe/core/protocol';
import { createTestApp, generateVideo, RecordedEvents, startedToolbox } from '@keyframe/core/testing';
import { createTempFolder } from '@keyframe/integration-testkit';
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { measure, measureAgainst, type Figure } from './harness.js';

const run = promisify(execFile);
/** Stream copies take tens of milliseconds: more runs steady their median. Encodes take seconds. */
const COPY_RUNS = 9;
const ENCODE_RUNS = 3;
const CLIP_SECONDS = 30;

/** The library with one long session, the clip service over it, and a scratch file for the baselines. */
export interface ClipWorld {
  settings: SettingsStore;
  ffmpeg: string;
  ffprobe: string;
  codecs: readonly Codec[];
  source: string;
  /** Where the clips start: the middle of the source, on a keyframe. */
  middle: number;
  bare: string;
  clip(start: number, mutedAudioTracks?: number[]): Promise<void>;
  /** Each clip is timed until it is listed; its artwork, made after, ends before the next run starts, and so does the write-back of what the run wrote (else the next run's fsync of a sidecar pays for it). */
  artworkMade(): Promise<void>;
  dispose(): Promise<void>;
}

export async function openClipWorld(sourceSeconds = 600): Promise<ClipWorld> {
  const temp = await createTempFolder('keyframe-clip-bench-');
  const dataFolder = path.join(temp.path, 'data');
  await mkdir(dataFolder, { recursive: true });
  const toolbox = await startedToolbox(dataFolder);
  const app = await createTestApp({
    dataFolder,
    settings: { clipFps: 0, clipPreset: 'veryfast' },
    overrides: [
      [EVENT_SINK, new RecordedEvents()],
      [FfmpegToolbox, toolbox],
    ],
  });
  const settings = app.resolve(SettingsStore);
  const library = app.resolve(ContentLibrary);
  await library.load();
  const { ffmpeg, ffprobe } = toolbox.requireFfmpeg('The clip bench');
  const folder = path.join(settings.current.contentFolder, 'Full Sessions', 'Bench');
  await mkdir(folder, { recursive: true });
  const source = path.join(folder, 'long.mp4');
  await generateVideo(ffmpeg.path, source, { seconds: sourceSeconds, width: 1920, height: 1080, frameRate: 10, tones: [440, 660] });
  const item = await library.add({ type: 'Session', filePath: source, game: 'Bench', durationSeconds: sourceSeconds });
  const jobs = app.resolve(JobRunner);
  const clips = app.resolve(ClipService);
  let id = 1;
  return {
    settings,
    ffmpeg: ffmpeg.path,
    ffprobe: ffprobe.path,
    codecs: toolbox.codecs,
    source,
    middle: sourceSeconds / 2,
    bare: path.join(temp.path, 'bare.mp4'),
    async clip(start, mutedAudioTracks = []) {
      await clips.create([
        {
          id: id++,
          startTime: start,
          endTime: start + CLIP_SECONDS,
          fileName: item.fileName,
          filePath: item.filePath,
          type: 'Session',
          game: 'Bench',
          mutedAudioTracks,
        },
      ]);
      await clips.idle();
    },
    async artworkMade() {
      await jobs.idle();
      if (process.platform !== 'win32') await run('sync', []);
    },
    async dispose() {
      await app.dispose();
      await temp.remove();
    },
  };
}

/** Every clip figure over one generated source. */
export async function benchClips(): Promise<Figure[]> {
  const world = await openClipWorld();
  try {
    return [await benchClipFastPath(world), await benchClipSmartCut(world), await benchClipReencode(world)];
  } finally {
    await world.dispose();
  }
}

export async function benchClipFastPath(world: ClipWorld): Promise<Figure> {
  const copy = () =>
    run(world.ffmpeg, [
      '-v',
      'error',
      '-ss',
      String(world.middle),
      '-i',
      world.source,
      '-t',
      String(CLIP_SECONDS),
      '-map',
      '0',
      '-c',
      'copy',
      '-y',
      world.bare,
    ]).then(() => undefined);
  const fast = await measureAgainst(() => world.clip(world.middle), copy, COPY_RUNS, 1, world.artworkMade);
  return {
    name: 'clip 30 s fast path (probe + copy + item listed)',
    ...fast,
    baseline: 'ffmpeg -ss -t -c copy (runs alternated)',
    ratio: fast.medianMs / fast.baselineMedianMs,
    runs: COPY_RUNS,
    note: 'target <= 1.3x; thumbnail and waveform follow the listing (requests for them wait)',
  };
}

export async function benchClipSmartCut(world: ClipWorld): Promise<Figure> {
  const start = world.middle + 0.5;
  const reencodeSpan = () =>
    run(world.ffmpeg, [
      '-v',
      'error',
      '-ss',
      String(start),
      '-i',
      world.source,
      '-t',
      String(CLIP_SECONDS),
      '-map',
      '0',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-c:a',
      'aac',
      '-y',
      world.bare,
    ]).then(() => undefined);
  const smart = await measure(() => world.clip(start), ENCODE_RUNS, 1, world.artworkMade);
  const encoded = await measure(reencodeSpan, ENCODE_RUNS, 1);
  return {
    name: 'clip 30 s smart cut',
    medianMs: smart,
    baseline: 'full re-encode of the span',
    baselineMedianMs: encoded,
    ratio: smart / encoded,
    runs: ENCODE_RUNS,
    note: 'target <= 0.3x',
  };
}

export async function benchClipReencode(world: ClipWorld): Promise<Figure> {
  const muted = [1];
  const probed = await probeMedia(world.ffprobe, world.source);
  const video = probed.streams.find((stream) => stream.type === 'video')!;
  // The source as the clip service reads it from the same probe.
  const source: ClipSource = {
    path: world.source,
    durationSeconds: probed.durationSeconds ?? 0,
    videoCodec: video.codec,
    width: video.width ?? 1920,
    height: video.height ?? 1080,
    frameRate: video.frameRate ?? 10,
    audioTracks: probed.streams
      .filter((stream) => stream.type === 'audio')
      .map((stream) => ({
        codec: stream.codec,
        ...(stream.sampleRate ? { sampleRate: stream.sampleRate } : {}),
        ...(stream.channels ? { channels: stream.channels } : {}),
        ...(stream.title ? { title: stream.title } : {}),
      })),
  };
  const quality = world.settings.current;
  const args = encodeArgs(
    [{ source, startSeconds: world.middle, endSeconds: world.middle + CLIP_SECONDS, mutedAudioTracks: muted, audioTrackVolumes: {} }],
    {
      quality,
      encoder: chooseClipEncoder(quality, world.codecs),
      target: world.bare,
      format: 'mp4',
      keepSeparateTracks: quality.clipKeepSeparateAudioTracks,
    },
  );
  const bare = () => run(world.ffmpeg, ['-v', 'error', ...args]).then(() => undefined);
  const timed = await measureAgainst(() => world.clip(world.middle, muted), bare, ENCODE_RUNS, 1, world.artworkMade);
  return {
    name: 'clip 30 s re-encode (a muted audio track)',
    ...timed,
    baseline: 'bare ffmpeg, the same command line (runs alternated)',
    ratio: timed.medianMs / timed.baselineMedianMs,
    runs: ENCODE_RUNS,
    note: `bound by the encoder (${quality.clipPreset} at CRF ${quality.clipQualityCpu}); the service adds the probe, the listing and the artwork`,
  };
}
