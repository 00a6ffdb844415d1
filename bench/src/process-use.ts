// CPU and memory of running processes over a window (Linux /proc), and the empty Node process that
// baselines a service's memory: what Node itself costs before any code runs.
import { sampleProcess } from '@keyframe/test';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { cpuMs, median } from './harness.js';

export interface ProcessUse {
  /** CPU time (user + system) per second of the window, in ms. */
  cpuMsPerSecond: number;
  /** Median resident memory over the window, in MiB. */
  rssMiB: number;
}

/** Samples every process in `pids` once a second for `windowMs`; one result per pid, in order. */
export async function processUse(pids: readonly number[], windowMs: number): Promise<ProcessUse[]> {
  const cpuBefore = await Promise.all(pids.map((pid) => cpuMs(pid)));
  const rss: number[][] = pids.map(() => []);
  const began = performance.now();
  while (performance.now() - began < windowMs) {
    const samples = await Promise.all(pids.map((pid) => sampleProcess(pid)));
    samples.forEach((sample, index) => rss[index]!.push(sample.rssBytes / 1024 / 1024));
    await delay(1000);
  }
  const cpuAfter = await Promise.all(pids.map((pid) => cpuMs(pid)));
  const seconds = (performance.now() - began) / 1000;
  return pids.map((_, index) => ({ cpuMsPerSecond: (cpuAfter[index]! - cpuBefore[index]!) / seconds, rssMiB: median(rss[index]!) }));
}

/** A Node process that only keeps running: `stop` ends it. */
export async function startEmptyNode(): Promise<{ pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
  await once(child, 'spawn');
  return {
    pid: child.pid!,
    async stop() {
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    },
  };
}
