// Moving finished media into place without ever replacing a file: the name is claimed with an
// operation that fails when something is already there (a hard link, an exclusive copy, an exclusive
// create), and on EEXIST the next variant is tried (`name (1).mp4`, `name (2).mp4`, …). Checking
// first and renaming after is not enough: two jobs that check at once both see a free name, and the
// second rename silently replaces the first job's video.
import { constants } from 'node:fs';
import { access, copyFile, link, mkdir, open, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { errorCode, isNoHardLinks } from '../support/file-errors.js';

/** Moves `source` to `target`, or to the first free ` (n)` variant of it; resolves to where it went. */
export async function moveFile(source: string, target: string): Promise<string> {
  await mkdir(path.dirname(target), { recursive: true });
  return claimFreeName(target, (candidate) => placeWithoutReplacing(source, candidate));
}

/**
 * Creates an empty file at `target` or its first free ` (n)` variant and resolves to its path: the
 * name is then this caller's, for a writer that cannot write exclusively itself (ffmpeg).
 */
export async function reserveFreePath(target: string): Promise<string> {
  await mkdir(path.dirname(target), { recursive: true });
  return claimFreeName(target, async (candidate) => (await open(candidate, 'wx')).close());
}

/**
 * `target` if nothing is there now, else the first ` (n)` variant free now: only a name to show
 * ahead of time. Whoever writes the file claims a name with `moveFile` or `reserveFreePath`.
 */
export async function freePath(target: string): Promise<string> {
  return claimFreeName(target, async (candidate) => {
    if (
      await access(candidate).then(
        () => true,
        () => false,
      )
    )
      throw Object.assign(new Error(`${candidate} exists`), { code: 'EEXIST' });
  });
}

/** Runs `claim` on `target`, `name (1).ext`, `name (2).ext`, … until one does not fail with EEXIST. */
async function claimFreeName(target: string, claim: (candidate: string) => Promise<void>): Promise<string> {
  const extension = path.extname(target);
  const stem = target.slice(0, target.length - extension.length);
  for (let attempt = 0; ; attempt++) {
    const candidate = attempt === 0 ? target : `${stem} (${attempt})${extension}`;
    try {
      await claim(candidate);
      return candidate;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
  }
}

/** Puts `source` at `destination` only if nothing is there (EEXIST otherwise); `source` is gone after. */
async function placeWithoutReplacing(source: string, destination: string): Promise<void> {
  try {
    await link(source, destination);
  } catch (error) {
    if (errorCode(error) === 'EXDEV') return copyThenRemove(source, destination);
    if (isNoHardLinks(error)) return renameOntoReservation(source, destination);
    throw error;
  }
  await unlink(source);
}

/** Another drive: an exclusive copy, then the source goes; a half-made copy is removed. */
async function copyThenRemove(source: string, destination: string): Promise<void> {
  try {
    await copyFile(source, destination, constants.COPYFILE_EXCL);
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') await rm(destination, { force: true }).catch(() => undefined);
    throw error;
  }
  await rm(source, { force: true });
}

/** No hard links: the name is reserved with an exclusive create, then the rename replaces only that empty reservation. */
async function renameOntoReservation(source: string, destination: string): Promise<void> {
  await (await open(destination, 'wx')).close();
  try {
    await rename(source, destination);
  } catch (error) {
    await rm(destination, { force: true }).catch(() => undefined);
    throw error;
  }
}
