// Direct reads of the Demos folder, for replays saved while the integration was not active (the
// watchFolder feed only reports files that appear while it is open).
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPLAY_FILE_PATTERN } from './replay-layout.js';

/** The names of the replay folders in the Demos folder; none while it does not exist. */
export async function replayFolderNames(demosFolder: string): Promise<Set<string>> {
  const entries = await readdir(demosFolder, { withFileTypes: true }).catch(() => []);
  return new Set(entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name));
}

/** The files of one replay folder the integration reads, relative to the Demos folder. */
export async function replayFilesIn(demosFolder: string, replay: string): Promise<string[]> {
  const entries = await readdir(path.join(demosFolder, replay), { recursive: true }).catch(() => []);
  return entries
    .map((entry) => `${replay}/${entry.split(path.sep).join('/')}`)
    .filter((relativePath) => REPLAY_FILE_PATTERN.test(relativePath));
}

export interface CompleteFileOptions {
  /** A file counts as complete once it has not changed for this long. */
  stableMs: number;
  /** Give up (undefined) after this long. */
  timeoutMs: number;
  signal: AbortSignal;
}

/** The file's contents once the game has finished writing it; undefined when it vanished, never settled or the wait was aborted. */
export async function readWhenComplete(file: string, options: CompleteFileOptions): Promise<Buffer | undefined> {
  const deadline = Date.now() + options.timeoutMs;
  let previous: { size: number; mtimeMs: number } | undefined;
  while (!options.signal.aborted) {
    const current = await stat(file).catch(() => undefined);
    if (!current) return undefined;
    const unchanged = previous?.size === current.size && previous.mtimeMs === current.mtimeMs;
    if (unchanged || Date.now() - current.mtimeMs >= options.stableMs) return readFile(file).catch(() => undefined);
    if (Date.now() >= deadline) return undefined;
    previous = { size: current.size, mtimeMs: current.mtimeMs };
    await sleep(options.stableMs, undefined, { signal: options.signal }).catch(() => undefined);
  }
  return undefined;
}
