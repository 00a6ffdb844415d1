// Measuring: medians of repeated runs, ratios against a baseline measured in the same run.
import { readFile, writeFile } from 'node:fs/promises';

export interface Figure {
  name: string;
  /** Median of the measured runs, in milliseconds (or in `unit` when the figure names one). */
  medianMs: number;
  baseline: string;
  baselineMedianMs: number;
  /** medianMs / baselineMedianMs. */
  ratio: number;
  runs: number;
  note?: string;
  /** What `medianMs` and `baselineMedianMs` count when not milliseconds, e.g. `MiB` for memory. */
  unit?: string;
}

/** Milliseconds since `start`, a `process.hrtime.bigint()` reading. */
export function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Runs `task` `warmup` times unmeasured, then `runs` times; returns the median in ms. `settle`, not
 * measured, runs after each: work the task leaves going (a clip's artwork) ends before the next starts.
 */
export async function measure(task: () => Promise<void>, runs: number, warmup = 3, settle?: () => Promise<void>): Promise<number> {
  for (let index = 0; index < warmup; index++) {
    await task();
    await settle?.();
  }
  const times: number[] = [];
  for (let index = 0; index < runs; index++) {
    const start = process.hrtime.bigint();
    await task();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    await settle?.();
  }
  return median(times);
}

const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU time of a process in ms (Linux `/proc/<pid>/stat`). */
export async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * Medians of `task` and `baseline` run one after the other in turn, so both meet the machine in the
 * same state (disk write-back of the previous run, other load): a fairer ratio for short operations.
 */
export async function measureAgainst(
  task: () => Promise<void>,
  baseline: () => Promise<void>,
  runs: number,
  warmup = 1,
  settle?: () => Promise<void>,
): Promise<{ medianMs: number; baselineMedianMs: number }> {
  const timed = async (work: () => Promise<void>) => {
    const start = process.hrtime.bigint();
    await work();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    await settle?.();
    return ms;
  };
  for (let index = 0; index < warmup; index++) {
    await timed(task);
    await timed(baseline);
  }
  const taskTimes: number[] = [];
  const baselineTimes: number[] = [];
  for (let index = 0; index < runs; index++) {
    taskTimes.push(await timed(task));
    baselineTimes.push(await timed(baseline));
  }
  return { medianMs: median(taskTimes), baselineMedianMs: median(baselineTimes) };
}

export function printTable(figures: Figure[]): void {
  const rows = figures.map((figure) => [
    figure.name,
    `${figure.medianMs.toFixed(2)} ${figure.unit ?? 'ms'}`,
    `${figure.baselineMedianMs.toFixed(2)} ${figure.unit ?? 'ms'} (${figure.baseline})`,
    `${figure.ratio.toFixed(2)}x`,
    String(figure.runs),
  ]);
  const header = ['figure', 'median', 'baseline median', 'ratio', 'runs'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
  for (const figure of figures.filter((item) => item.note)) console.log(`\n${figure.name}: ${figure.note}`);
}

export async function writeResults(file: string, figures: Figure[]): Promise<void> {
  const machine = { node: process.version, platform: process.platform, arch: process.arch };
  await writeFile(file, `${JSON.stringify({ measuredAt: new Date().toISOString(), machine, figures }, null, 2)}\n`);
}
