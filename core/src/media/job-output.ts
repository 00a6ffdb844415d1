// What every media job (clip, highlight, compression, import) does with its result: it is written
// under a temporary name beside the target and moved into place only when complete, so a file
// under the final name is always whole; on failure or cancel the temporary file is removed.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { moveFile } from './move-file.js';

/**
 * `<folder>/.<name>.<random>.part`: hidden, never mistaken for a video by the library or recovery,
 * and one per job, so two jobs aiming at the same name never write into the same file.
 */
export function tempOutputPath(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.part`);
}

const TEMP_OUTPUT = /^\..+\.part$/;

/**
 * Removes what jobs that a crash cut off left behind: temporary outputs anywhere below `folders`
 * (the content type folders) and the job work folders `scratch`. Returns the paths removed.
 */
export async function removeUnfinishedOutputs(folders: readonly string[], scratch: readonly string[]): Promise<string[]> {
  const removed: string[] = [];
  for (const folder of folders) {
    const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries.filter((candidate) => candidate.isFile() && TEMP_OUTPUT.test(candidate.name))) {
      const file = path.join(entry.parentPath, entry.name);
      await rm(file, { force: true });
      removed.push(file);
    }
  }
  for (const folder of scratch) {
    const entries = await readdir(folder).catch(() => []);
    if (entries.length === 0) continue;
    await rm(folder, { recursive: true, force: true });
    removed.push(folder);
  }
  return removed;
}

export interface JobOutput<T> {
  /** What `produce` resolved to. */
  value: T;
  /** Where the finished file is: `target`, or ` (n)` of it when that name was taken meanwhile. */
  filePath: string;
}

/**
 * Runs `produce` on a temporary path of its own, then `place`s the finished file — by default at
 * `target` or its first free ` (n)` variant, never over another file; removes the temporary file if
 * anything fails (a cancel too), and the folders it created for it when they stayed empty.
 */
export async function produceInto<T>(
  target: string,
  produce: (temp: string) => Promise<T>,
  place: (temp: string, value: T) => Promise<string> = (temp) => moveFile(temp, target),
): Promise<JobOutput<T>> {
  const temp = tempOutputPath(target);
  const created = await mkdir(path.dirname(target), { recursive: true });
  try {
    const value = await produce(temp);
    return { value, filePath: await place(temp, value) };
  } catch (error) {
    await rm(temp, { force: true });
    if (created !== undefined) await removeCreatedFolders(path.dirname(target), created);
    throw error;
  }
}

/** `folder` and its parents up to `topmost`, the first one `mkdir` created, as far as they are still empty. */
async function removeCreatedFolders(folder: string, topmost: string): Promise<void> {
  for (let current = folder; ; current = path.dirname(current)) {
    const removed = await rmdir(current).then(
      () => true,
      () => false,
    );
    if (!removed || path.resolve(current) === path.resolve(topmost) || path.dirname(current) === current) return;
  }
}

/**
 * Progress in SPEC's vocabulary from the output position of an ffmpeg run: whole percents, never
 * 100 while running (100 means complete and is sent once, at the end).
 */
export function percentOf(doneSeconds: number, totalSeconds: number): number {
  if (!(totalSeconds > 0) || !(doneSeconds > 0)) return 0;
  return Math.min(99, Math.floor((doneSeconds / totalSeconds) * 100));
}
