// On-screen text recognition:
// - OCR time per 1080p frame for the event band (cut, threshold, one-line recognition), against
//   recognising the whole frame (sparse text, tesseract's own binarisation), same worker kind;
// - the service's own CPU (ffmpeg excluded) while vehicleSoccer reads every 250 ms (its default)
//   during a recording, against the same recording with the integration idle (no game running).
import { createOfflineWorker, decodePng, ScreenTextReader, SharedTextRecognizer } from '@keyframe/core/internal';
import type { ScreenTextOptions } from '@keyframe/core';
import { IntegrationService, createTempFolder, writeTextFrames, writeTextVideo, type DrawnText } from '@keyframe/integration-testkit';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { cpuMs, measure, type Figure } from './harness.js';

const RUNS = 15;
/** Two goal messages of 2 s each in the reading window: text in the band a fifth of the time. */
const CPU_WINDOW_MS = 20_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The vehicle-soccer event band (plugins/vehicle-soccer/src/event-text.ts). */
const EVENT_BAND: ScreenTextOptions = {
  region: { left: 0.38, top: 0.15, width: 0.24, height: 0.1 },
  intervalMs: 250,
  preprocess: { kind: 'threshold', level: 200 },
};
const goalMessage = (fromMs: number, toMs: number): DrawnText => ({
  text: '+100 GOAL',
  fromMs,
  toMs,
  centre: { x: 0.5, y: 0.2 },
  size: 0.055,
  colour: 'white',
  outline: { colour: 'black', width: 4 },
});

export async function benchScreenText(): Promise<Figure[]> {
  const temp = await createTempFolder('keyframe-bench-ocr-');
  try {
    return [await benchFrameOcr(temp.path), await benchServiceCpu(temp.path)];
  } finally {
    await temp.remove();
  }
}

async function benchFrameOcr(folder: string): Promise<Figure> {
  // Pictures that differ in their grain, read in turn: the reader does not recognise again the band
  // pixels it has just read, and every frame here must cost a recognition.
  const scene = { width: 1920, height: 1080, durationMs: 500, background: 'noisyBars' as const, texts: [goalMessage(0, 500)] };
  const written = await writeTextFrames(scene, path.join(folder, 'frame'), 100);
  const pngs = await Promise.all(written.map(({ frame }) => readFile(path.join(folder, 'frame', frame))));
  const frames = pngs.map((png, index) => ({ ...decodePng(png), timeMs: index * 100 }));

  const recognizer = new SharedTextRecognizer();
  const lease = recognizer.lease();
  const reader = new ScreenTextReader('bench', EVENT_BAND, lease);
  let regionText = '';
  let next = 0;
  const regionMs = await measure(async () => {
    const reading = await reader.read(frames[next++ % frames.length]!);
    regionText = reading.kind === 'read' ? reading.input.text : '';
  }, RUNS);
  await lease.release();

  const whole = await createOfflineWorker('sparse');
  let wholeText = '';
  const wholeMs = await measure(
    async () => {
      wholeText = (await whole.recognize(pngs[0]!)).data.text.replace(/\s+/g, ' ').trim();
    },
    RUNS,
    1,
  );
  await whole.terminate();
  return {
    name: 'OCR of a 1080p frame: event band (cut, threshold, one line)',
    medianMs: regionMs,
    baseline: 'the whole frame (sparse text)',
    baselineMedianMs: wholeMs,
    ratio: regionMs / wholeMs,
    runs: RUNS,
    note: `band read ${JSON.stringify(regionText)}; the whole frame read ${JSON.stringify(wholeText.slice(0, 60))}; target for the band 50-100 ms`,
  };
}

async function benchServiceCpu(folder: string): Promise<Figure> {
  const video = path.join(folder, 'match.mp4');
  // A goal message every 10 s, on screen for 2 s: the band has text about a fifth of the time.
  await writeTextVideo(
    {
      width: 1920,
      height: 1080,
      durationMs: 40_000,
      background: 'noisyBars',
      texts: [0, 1, 2, 3].map((index) => goalMessage(index * 10_000 + 3000, index * 10_000 + 5000)),
    },
    video,
  );
  const keyframe = await IntegrationService.start({ integration: 'vehicleSoccer', env: () => ({ KEYFRAME_SYNTHETIC_VIDEO: video }) });
  try {
    keyframe.client.send('UpdateSettings', { resolution: '1080p' });
    await keyframe.client.until('Settings', (settings) => settings.resolution === '1080p', 10_000);
    const pid = keyframe.service.child.pid!;
    const window = async () => {
      await sleep(2000); // the encode is up
      const before = await cpuMs(pid);
      await sleep(CPU_WINDOW_MS);
      return ((await cpuMs(pid)) - before) / (CPU_WINDOW_MS / 1000);
    };
    keyframe.client.send('StartRecording');
    await keyframe.client.until('State', (state) => state.recording !== null, 30_000);
    const idleMs = await window();
    await keyframe.stopRecording();

    await keyframe.startGame(path.join('RocketLeague', 'RocketLeague.exe'));
    await keyframe.recordWhileActive();
    // The OCR worker starts on the first frame with text pixels (3 s in) and costs ~0.4 s of CPU once
    // per game session: the window starts after the first goal is read, so it holds the reading only.
    await keyframe.bookmarksReach(1, 30_000);
    const readingMs = await window();
    const bookmarks = keyframe.client.latest('State')!.recording!.bookmarks.length - 1;
    await keyframe.stopRecording();
    return {
      name: 'service CPU per second of a 1080p recording, vehicleSoccer reading every 250 ms',
      medianMs: readingMs,
      baseline: 'the same recording, integration idle',
      baselineMedianMs: idleMs,
      ratio: readingMs / idleMs,
      runs: 1,
      note: `${(readingMs / 10).toFixed(1)}% of one core with OCR, ${(idleMs / 10).toFixed(1)}% without (ffmpeg excluded; the raw frames pipe is read in both; the OCR worker's start is before the window); ${bookmarks} Goal bookmarks in the window`,
    };
  } finally {
    await keyframe.stop();
  }
}
