// A library of 50,000 items: the service as a process of its own over a generated library
// (library-fixture.ts) of 5,000, 20,000 and 50,000 sessions, each size grown from the one before. Per
// size: start-up to the first NewConnection answer when the library index of the previous start is there
// (the start that built it is in the note), the NewConnection answer on a running service, and resident
// memory at rest. Each against its goal (issue 22, at 50,000 items): the ratio says how far from it.
import { ProtocolClient, ServiceProcess, createTempFolder } from '@keyframe/integration-testkit';
import { once } from 'node:events';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { measure, median, msSince, type Figure } from './harness.js';
import { writeLibraryItems, type LibraryFolders } from './library-fixture.js';
import { processUse } from './process-use.js';

const SIZES = [5_000, 20_000, 50_000];
const STARTS = 3;
const ANSWERS = 9;
const GOALS = { answerMs: 100, startMs: 2000, rssMiB: 200 };
/** After the first answer: the video check and the index write are over, the service is at rest. */
const SETTLE_MS = 6000;
const RSS_WINDOW_MS = 5000;

/** Opens a socket, sends NewConnection and resolves on the answer's last frame (AppVersion); rejects when the service closes it first. */
async function newConnectionAnswer(url: string): Promise<void> {
  const socket = new WebSocket(url);
  await once(socket, 'open');
  const answered = new Promise<void>((resolve, reject) => {
    socket.on('message', (data: Buffer) => {
      if (data.length < 4096 && data.toString().includes('"AppVersion"')) resolve();
    });
    socket.on('close', (code: number, reason: Buffer) =>
      reject(new Error(`closed by the service before its answer: ${code} ${reason.toString()}`)),
    );
  });
  socket.send(JSON.stringify({ Method: 'NewConnection' }));
  try {
    await answered;
  } finally {
    socket.terminate();
  }
}

/** Spawns the service and times it to its first NewConnection answer; NaN (and why) when it gives none. */
async function startTimed(dataFolder: string): Promise<{ service: ServiceProcess; ms: number; refused?: string }> {
  const start = process.hrtime.bigint();
  // Until it listens: the first answer comes before the video check and the plugins (State.loading).
  const service = await ServiceProcess.start({ dataFolder, legacyPort: 'off', startTimeoutMs: 120_000, until: 'listening' });
  const refused = await answerOf(() => newConnectionAnswer(service.url));
  return { service, ms: refused === undefined ? msSince(start) : Number.NaN, refused };
}

/** Undefined when `task` succeeds, else why it failed. */
async function answerOf(task: () => Promise<void>): Promise<string | undefined> {
  try {
    await task();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Waits until the library index vouches for the sessions folder, as a stop long after the last change leaves it. */
async function indexSettled(cacheFolder: string): Promise<void> {
  const file = path.join(cacheFolder, 'metadata', 'library-index.json');
  for (let waited = 0; waited < 30_000; waited += 500) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.includes('"stamp"')) return;
    await delay(500);
  }
  throw new Error(`the library index ${file} was not written`);
}

export async function benchLargeLibrary(): Promise<Figure[]> {
  const temp = await createTempFolder('keyframe-large-library-');
  const dataFolder = path.join(temp.path, 'data');
  const figures: Figure[] = [];
  try {
    const empty = await ServiceProcess.start({ dataFolder, legacyPort: 'off' });
    const client = await ProtocolClient.connect(empty.url);
    const { settings } = await client.handshake();
    const folders: LibraryFolders = { contentFolder: settings.contentFolder, cacheFolder: settings.cacheFolder };
    await client.close();
    await empty.stop();
    let written = 0;
    for (const size of SIZES) {
      const generation = process.hrtime.bigint();
      await writeLibraryItems(folders, written, size);
      written = size;
      const generatedMs = msSince(generation);
      // The first start after the library changed behind its back reads every sidecar, and writes the index.
      const first = await startTimed(dataFolder);
      await indexSettled(folders.cacheFolder);
      await first.service.stop();
      const indexBytes = (await stat(path.join(folders.cacheFolder, 'metadata', 'library-index.json'))).size;

      const starts: number[] = [];
      let service: ServiceProcess | undefined;
      let startRefused = first.refused;
      for (let run = 0; run < STARTS; run++) {
        await service?.stop();
        const started = await startTimed(dataFolder);
        if (started.refused === undefined) starts.push(started.ms);
        startRefused ??= started.refused;
        service = started.service;
      }
      try {
        let answerMs = Number.NaN;
        const answerRefused = await answerOf(async () => {
          answerMs = await measure(() => newConnectionAnswer(service!.url), ANSWERS, 1);
        });
        // At rest: everything loaded (the video check and the storage figures stat every video), then settled.
        for (let waited = 0; !service!.printed.includes('Loaded.'); waited += 100) {
          if (waited > 120_000) throw new Error('the service did not finish loading within 2 minutes');
          await delay(100);
        }
        await delay(SETTLE_MS);
        const [use] = await processUse([service!.child.pid!], RSS_WINDOW_MS);
        const startMs = starts.length > 0 ? median(starts) : Number.NaN;
        const items = `${size / 1000}k items`;
        figures.push(
          {
            name: `large library, ${items}: start-up to first NewConnection answer`,
            medianMs: startMs,
            baseline: `goal at 50k`,
            baselineMedianMs: GOALS.startMs,
            ratio: startMs / GOALS.startMs,
            runs: starts.length,
            note:
              `from the library index (${(indexBytes / 1024 / 1024).toFixed(1)} MiB); the first start after ${size - (SIZES[SIZES.indexOf(size) - 1] ?? 0)} ` +
              `items were added behind its back (every sidecar read) ${first.ms.toFixed(0)} ms; generating them took ${(generatedMs / 1000).toFixed(1)} s` +
              (startRefused === undefined
                ? ''
                : `; ${(first.refused ? 1 : 0) + STARTS - starts.length} of ${STARTS + 1} starts NOT ANSWERED (${startRefused})`),
          },
          {
            name: `large library, ${items}: NewConnection answer`,
            medianMs: answerMs,
            baseline: `goal at 50k`,
            baselineMedianMs: GOALS.answerMs,
            ratio: answerMs / GOALS.answerMs,
            runs: ANSWERS,
            note:
              'socket open, NewConnection sent, until the last frame of the answer (AppVersion) arrives' +
              (answerRefused === undefined ? '' : `; NOT ANSWERED (NaN: ${answerRefused})`),
          },
          {
            name: `large library, ${items}: resident memory at rest`,
            medianMs: use!.rssMiB,
            unit: 'MiB',
            baseline: `goal at 50k`,
            baselineMedianMs: GOALS.rssMiB,
            ratio: use!.rssMiB / GOALS.rssMiB,
            runs: RSS_WINDOW_MS / 1000,
            note: `${SETTLE_MS / 1000} s after the answers and the end of loading, no frontend connected, every plugin enabled; CPU at rest ${use!.cpuMsPerSecond.toFixed(1)} ms/s`,
          },
        );
      } finally {
        await service?.stop();
      }
    }
    return figures;
  } finally {
    await temp.remove();
  }
}
