// Clips from a 10 min 1080p file (generated once: ultrafast, 10 fps, a keyframe every second), with the
// service's classes in-process:
// - a 30 s clip starting on a keyframe (fast path) against bare `ffmpeg -ss -t -c copy` of the span;
// - a 30 s smart cut (start between keyframes) against a full re-encode of the same span.
import 'reflect-metadata';
import { ClipService, ContentArtwork, ContentLibrary, ContentLocator, MediaJobs, ServiceLogger as Logger, ServiceOptions, SettingsStore, StateStore } from '@keyframe/core/host';
import { generateVideo, RecordedEvents, startedCaptureEngine } from '@keyframe/core/testing';
import { createTempFolder } from '@keyframe/test';
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { measure, measureAgainst, type Figure } from './harness.js';

const run = promisify(execFile);
/** Stream copies take tens of milliseconds: more runs steady their median. Encodes take seconds. */
const COPY_RUNS = 9;
const ENCODE_RUNS = 3;

export async function benchClips(): Promise<Figure[]> {
  const temp = await createTempFolder('keyframe-clip-bench-');
  try {
    const events = new RecordedEvents();
    const logger = new Logger([]);
    const options = new ServiceOptions(path.join(temp.path, 'data'), 0, undefined, [], path.join(temp.path, 'Videos'));
    await mkdir(options.dataFolder, { recursive: true });
    const settings = new SettingsStore(options, logger);
    await settings.load();
    settings.replace({ ...settings.current, clipFps: 0, clipPreset: 'veryfast' });
    const state = new StateStore(events);
    const library = new ContentLibrary(settings, state, logger);
    await library.load();
    const engine = await startedCaptureEngine({ state, settings, events, options });
    const { ffmpeg } = engine.tools();
    const folder = path.join(settings.current.contentFolder, 'Full Sessions', 'Bench');
    await mkdir(folder, { recursive: true });
    const source = path.join(folder, 'long.mp4');
    await generateVideo(ffmpeg.path, source, { seconds: 600, width: 1920, height: 1080, frameRate: 10, tones: [440, 660] });
    const item = await library.add({ type: 'Session', filePath: source, game: 'Bench', durationSeconds: 600 });
    const jobs = new MediaJobs();
    const clips = new ClipService(settings, library, new ContentLocator(settings, library), engine, new ContentArtwork(settings, library, jobs, logger), events, logger);
    let id = 1;
    const clip = async (start: number) => {
      await clips.create([{ id: id++, startTime: start, endTime: start + 30, fileName: item.fileName, filePath: item.filePath, type: 'Session', game: 'Bench' }]);
      await clips.idle();
    };
    const bare = path.join(temp.path, 'bare.mp4');
    const copy = () => run(ffmpeg.path, ['-v', 'error', '-ss', '300', '-i', source, '-t', '30', '-map', '0', '-c', 'copy', '-y', bare]).then(() => undefined);
    const reencode = () => run(ffmpeg.path, ['-v', 'error', '-ss', '300.5', '-i', source, '-t', '30', '-map', '0', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-c:a', 'aac', '-y', bare]).then(() => undefined);
    // Each clip is timed until it is listed; its artwork, made after, ends before the next run starts,
    // and so does the write-back of what the run wrote (else the next run's fsync of a sidecar pays for it).
    const artworkMade = async () => {
      await jobs.idle();
      if (process.platform !== 'win32') await run('sync', []);
    };
    const fast = await measureAgainst(() => clip(300), copy, COPY_RUNS, 1, artworkMade);
    const smart = await measure(() => clip(300.5), ENCODE_RUNS, 1, artworkMade);
    const encoded = await measure(reencode, ENCODE_RUNS, 1);
    state.dispose();
    return [
      { name: 'clip 30 s fast path (probe + copy + item listed)', ...fast, baseline: 'ffmpeg -ss -t -c copy (runs alternated)', ratio: fast.medianMs / fast.baselineMedianMs, runs: COPY_RUNS, note: 'target <= 1.3x; thumbnail and waveform follow the listing (requests for them wait)' },
      { name: 'clip 30 s smart cut', medianMs: smart, baseline: 'full re-encode of the span', baselineMedianMs: encoded, ratio: smart / encoded, runs: ENCODE_RUNS, note: 'target <= 0.3x' },
    ];
  } finally {
    await temp.remove();
  }
}
