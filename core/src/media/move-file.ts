// Moving finished media into place: a rename, or copy + delete across drives, never over an
// existing file (`name (1).mp4`, `name (2).mp4`, …).
import { constants } from 'node:fs';
import { access, copyFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Moves `source` to `target`, or to the first free ` (n)` variant of it; resolves to where it went. */
export async function moveFile(source: string, target: string): Promise<string> {
  await mkdir(path.dirname(target), { recursive: true });
  const destination = await freePath(target);
  try {
    await rename(source, destination);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    try {
      await copyFile(source, destination, constants.COPYFILE_EXCL);
    } catch (copyError) {
      await rm(destination, { force: true }).catch(() => undefined);
      throw copyError;
    }
    await rm(source, { force: true });
  }
  return destination;
}

/** `target` if nothing is there, else `name (1).ext`, `name (2).ext`, … */
export async function freePath(target: string): Promise<string> {
  const extension = path.extname(target);
  const stem = target.slice(0, target.length - extension.length);
  for (let attempt = 0; ; attempt++) {
    const candidate = attempt === 0 ? target : `${stem} (${attempt})${extension}`;
    if (!(await exists(candidate))) return candidate;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
