// What a recording of the synthetic capture (test pattern and tone, no display) costs: the CPU of
// the service's ffmpeg per second of recording at default settings (1080p60, Session mode), against
// one core. Tests and headless users record this way; the goal is at most half a core.
import { startedToolbox } from '@keyframe/core/testing';
import { ProtocolClient, ServiceProcess, createTempFolder } from '@keyframe/integration-testkit';
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Figure } from './harness.js';
import { processUse } from './process-use.js';

const run = promisify(execFile);
const CPU_WINDOW_MS = 20_000;
/** Past the encoder's start-up (opening the inputs, the first keyframes). */
const SETTLE_MS = 2_000;
const ONE_CORE_MS_PER_SECOND = 1000;

/** The service's ffmpeg child (the recording's encode). */
export async function ffmpegChild(servicePid: number): Promise<number> {
  const { stdout } = await run('ps', ['-o', 'pid=,comm=', '--ppid', String(servicePid)]);
  const line = stdout.split('\n').find((row) => row.trim().endsWith('ffmpeg'));
  if (!line) throw new Error('the service runs no ffmpeg');
  return Number(line.trim().split(/\s+/)[0]);
}

/**
 * Frames a second in the recorded file: a source too costly for the machine keeps up with fewer
 * than its rate (frames are missed, time is not), which also caps its CPU.
 */
async function framesPerSecond(ffprobe: string, folder: string): Promise<number> {
  const names = (await readdir(folder, { recursive: true })).filter((name) => name.endsWith('.mp4'));
  if (names.length !== 1) throw new Error(`expected one recording in ${folder}, found ${names.length}`);
  const { stdout } = await run(ffprobe, [
    ...['-v', 'error', '-select_streams', 'v', '-count_packets'],
    ...['-show_entries', 'stream=nb_read_packets:format=duration', '-of', 'csv=p=0', path.join(folder, names[0]!)],
  ]);
  const [packets, seconds] = stdout.trim().split(/\s+/).map(Number);
  return packets! / seconds!;
}

export async function benchSyntheticCapture(): Promise<Figure> {
  const temp = await createTempFolder('keyframe-bench-');
  const { ffprobe } = (await startedToolbox(temp.path)).requireFfmpeg('The synthetic capture bench');
  const dataFolder = path.join(temp.path, 'data');
  const videos = path.join(temp.path, 'videos');
  const service = await ServiceProcess.start({ dataFolder, legacyPort: 'off', env: { KEYFRAME_CAPTURE: 'synthetic' } });
  const client = await ProtocolClient.connect(service.url);
  try {
    const { settings } = await client.handshake();
    client.send('UpdateSettings', { contentFolder: videos });
    await client.next('Settings');
    client.send('StartRecording');
    await client.until('State', (next) => next.recording !== null, 30_000);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const [use] = await processUse([await ffmpegChild(service.child.pid!)], CPU_WINDOW_MS);
    client.send('StopRecording');
    await client.until('State', (next) => next.recording === null && next.preRecording === null, 30_000);
    const kept = await framesPerSecond(ffprobe.path, videos);
    const { resolution, frameRate, recordingMode } = settings;
    return {
      name: 'synthetic capture: ffmpeg CPU per second of recording',
      medianMs: use!.cpuMsPerSecond,
      baseline: 'one core (1000 ms per second)',
      baselineMedianMs: ONE_CORE_MS_PER_SECOND,
      ratio: use!.cpuMsPerSecond / ONE_CORE_MS_PER_SECOND,
      runs: 1,
      note: `default settings (${resolution} ${frameRate} fps, ${recordingMode}), ${kept.toFixed(1)} frames a second recorded; ${CPU_WINDOW_MS / 1000} s window; goal <= 0.5`,
    };
  } finally {
    await client.close();
    await service.stop();
    await temp.remove();
  }
}
