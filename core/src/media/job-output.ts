// What every media job (clip, highlight, compression, import) does with its result: it is written
// under a temporary name beside the target and renamed into place only when complete, so a file
// under the final name is always whole; on failure or cancel the temporary file is removed.
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** `<folder>/.<name>.part`: hidden, and never mistaken for a video by the library or recovery. */
export function tempOutputPath(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.part`);
}

/** Runs `produce` on the temporary path, then renames it to `target`; removes it if anything fails. */
export async function produceInto<T>(target: string, produce: (temp: string) => Promise<T>): Promise<T> {
  const temp = tempOutputPath(target);
  await mkdir(path.dirname(target), { recursive: true });
  try {
    const result = await produce(temp);
    await rename(temp, target);
    return result;
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
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
