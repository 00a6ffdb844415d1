// Resource use of a running process, read from Linux /proc: resident memory and open file
// descriptors, to show that long or hostile runs do not leak.
import { readdir, readFile } from 'node:fs/promises';

export interface ProcessSample {
  rssBytes: number;
  openFileDescriptors: number;
}

export const processSamplingSupported = process.platform === 'linux';

export async function sampleProcess(pid: number): Promise<ProcessSample> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kibibytes = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  if (kibibytes === undefined) throw new Error(`no VmRSS in /proc/${pid}/status: has the process exited?`);
  const descriptors = await readdir(`/proc/${pid}/fd`);
  return { rssBytes: Number(kibibytes) * 1024, openFileDescriptors: descriptors.length };
}

/**
 * Samples `pid` every `intervalMs` until the sample satisfies `settled` or `timeoutMs` passes; the
 * last sample either way. V8 gives memory back lazily, so a single reading right after load says little.
 */
export async function sampleUntil(
  pid: number,
  settled: (sample: ProcessSample) => boolean,
  options: { timeoutMs: number; intervalMs?: number },
): Promise<ProcessSample> {
  const deadline = Date.now() + options.timeoutMs;
  let sample = await sampleProcess(pid);
  while (!settled(sample) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 500));
    sample = await sampleProcess(pid);
  }
  return sample;
}

export const mebibytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
