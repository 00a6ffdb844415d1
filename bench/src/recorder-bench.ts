// The recorder with the real service (synthetic capture, 720p30, Buffer mode, 30 s replay buffer):
// - start to first frame: StartRecording until State shows the recording, against raw ffmpeg
//   encoding the first frame of the same synthetic input;
// - the service's own CPU while recording (ffmpeg excluded), against ffmpeg's, both per second, and
//   its resident memory against an empty Node process's in the same window;
// - saving a 30 s replay once its segments are closed (join, probe, artwork, item), against a bare
//   ffmpeg concat of the same segments into the same kind of file.
import { startedToolbox } from '@keyframe/core/testing';
import { ProtocolClient, ServiceProcess, createTempFolder } from '@keyframe/integration-testkit';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { measure, median, type Figure } from './harness.js';
import { processUse, startEmptyNode } from './process-use.js';
import { ffmpegChild } from './synthetic-capture-bench.js';

const run = promisify(execFile);
const REPLAY_SECONDS = 30;
const SAVES = 5;
const START_RUNS = 5;
const CPU_WINDOW_MS = 20_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface SaveLog {
  fields: { tookMs: number; waitedForSegmentMs: number };
}

/** The service logs each save's time and the part of it spent waiting for the last segment to close. */
async function saveLogs(dataFolder: string): Promise<SaveLog[]> {
  const text = await readFile(path.join(dataFolder, 'logs', 'keyframe.log'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.includes('"replay buffer saved"'))
    .map((line) => JSON.parse(line) as SaveLog);
}

export async function benchRecorder(): Promise<Figure[]> {
  const temp = await createTempFolder('keyframe-bench-');
  const { ffmpeg } = (await startedToolbox(temp.path)).requireFfmpeg('The recorder bench');
  const dataFolder = path.join(temp.path, 'data');
  const service = await ServiceProcess.start({ dataFolder, legacyPort: 'off', env: { KEYFRAME_CAPTURE: 'synthetic' } });
  const client = await ProtocolClient.connect(service.url);
  try {
    await client.handshake();
    client.send('UpdateSettings', {
      resolution: '720p',
      frameRate: 30,
      recordingMode: 'Buffer',
      replayBufferDuration: REPLAY_SECONDS,
      contentFolder: path.join(temp.path, 'videos'),
    });
    await client.next('Settings');

    const record = async () => {
      client.send('StartRecording');
      await client.until('State', (state) => state.recording !== null, 30_000);
    };
    const stop = async () => {
      client.send('StopRecording');
      await client.until('State', (state) => state.recording === null && state.preRecording === null, 30_000);
    };
    const startTimes: number[] = [];
    for (let index = 0; index <= START_RUNS; index++) {
      const began = process.hrtime.bigint();
      await record();
      if (index > 0) startTimes.push(Number(process.hrtime.bigint() - began) / 1e6); // the first run warms up
      await stop();
    }
    const startMs = median(startTimes);
    const firstFrameArgs = [
      '-v',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1280x720:rate=30',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-frames:v',
      '1',
      '-f',
      'null',
      '-',
    ];
    const rawStartMs = await measure(
      async () => {
        await once(spawn(ffmpeg.path, firstFrameArgs, { stdio: 'ignore' }), 'exit');
      },
      START_RUNS,
      1,
    );

    await record();
    const encoder = await ffmpegChild(service.child.pid!);
    const empty = await startEmptyNode();
    const [serviceUse, ffmpegUse, emptyUse] = await processUse([service.child.pid!, encoder, empty.pid], CPU_WINDOW_MS).finally(() =>
      empty.stop(),
    );
    await sleep((REPLAY_SECONDS + 4) * 1000 - CPU_WINDOW_MS);

    const segmentsFolder = path.join(dataFolder, 'cache', 'replay-buffer');
    const [stamp] = await readdir(segmentsFolder);
    const bareMs: number[] = [];
    // Each run starts with what the previous one wrote on disk (sync), so it does not pay for that write-back.
    const settle = () => (process.platform === 'win32' ? Promise.resolve() : run('sync', []));
    for (let save = 0; save < SAVES; save++) {
      await settle();
      client.send('SaveReplayBuffer');
      await client.next('ReplayBufferSaved', () => true, 30_000);
      // The same amount of closed segments, joined by ffmpeg alone.
      const names = (await readdir(path.join(segmentsFolder, stamp!))).filter((name) => name.endsWith('.ts')).sort();
      const segments = names.slice(-(REPLAY_SECONDS / 2) - 1, -1).map((name) => path.join(segmentsFolder, stamp!, name));
      const list = path.join(temp.path, 'bench.ffconcat');
      await writeFile(list, `ffconcat version 1.0\n${segments.map((file) => `file '${file}'\n`).join('')}`);
      await settle();
      const began = process.hrtime.bigint();
      await run(ffmpeg.path, [
        '-v',
        'error',
        '-f',
        'concat',
        '-safe',
        '0',
        '-i',
        list,
        '-map',
        '0',
        '-c',
        'copy',
        '-bsf:a',
        'aac_adtstoasc',
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        '-y',
        path.join(temp.path, 'bare.mp4'),
      ]);
      bareMs.push(Number(process.hrtime.bigint() - began) / 1e6);
    }
    const saves = (await saveLogs(dataFolder)).map(({ fields }) => fields.tookMs - fields.waitedForSegmentMs);
    await stop();

    const serviceShare = serviceUse!.cpuMsPerSecond / 1000;
    return [
      {
        name: 'start to first frame (StartRecording to State)',
        medianMs: startMs,
        baseline: 'raw ffmpeg, first frame of the same input',
        baselineMedianMs: rawStartMs,
        ratio: startMs / rawStartMs,
        runs: START_RUNS,
        note: 'from the command to the State that shows the recording; the raw run spawns ffmpeg and waits for its exit',
      },
      {
        name: 'service CPU per second of recording (ffmpeg excluded)',
        medianMs: serviceUse!.cpuMsPerSecond,
        baseline: 'its ffmpeg, same window',
        baselineMedianMs: ffmpegUse!.cpuMsPerSecond,
        ratio: serviceUse!.cpuMsPerSecond / ffmpegUse!.cpuMsPerSecond,
        runs: 1,
        note: `${(serviceShare * 100).toFixed(2)}% of one core (target < 3%); ffmpeg ${(ffmpegUse!.cpuMsPerSecond / 10).toFixed(0)}%; ${CPU_WINDOW_MS / 1000} s window, preview off`,
      },
      {
        name: 'service RSS while recording (ffmpeg excluded)',
        medianMs: serviceUse!.rssMiB,
        unit: 'MiB',
        baseline: 'empty Node process, same window',
        baselineMedianMs: emptyUse!.rssMiB,
        ratio: serviceUse!.rssMiB / emptyUse!.rssMiB,
        runs: CPU_WINDOW_MS / 1000,
        note: `median of one sample a second; its ffmpeg ${ffmpegUse!.rssMiB.toFixed(0)} MiB besides (720p30, 30 s replay buffer)`,
      },
      {
        name: `replay-buffer save of ${REPLAY_SECONDS} s (segments closed)`,
        medianMs: median(saves),
        baseline: 'bare ffmpeg concat of the same segments',
        baselineMedianMs: median(bareMs),
        ratio: median(saves) / median(bareMs),
        runs: saves.length,
        note: 'join + probe + thumbnail + waveform + item; target ratio <= 1.5',
      },
    ];
  } finally {
    await client.close();
    await service.stop();
    await temp.remove();
  }
}
