// Files that are either the old or the new version, never half of each: temp file, fsync, rename.
// And files created once, complete from their first instant, never over one that exists: temp file,
// fsync, hard link.
import { link, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from './file-errors.js';

let sequence = 0;

export async function writeFileAtomic(filePath: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(filePath), { recursive: true });
  const temporary = `${filePath}.tmp-${process.pid}-${++sequence}`;
  try {
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, filePath);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(path.dirname(filePath));
}

/**
 * Creates `filePath` holding `data`, unless a file is there already (then false: nothing is replaced).
 * Readers never see it half written. Throws what `link` throws on a file system without hard links
 * (`isNoHardLinks`), for the caller to choose its own way there.
 */
export async function createFileComplete(filePath: string, data: string | Uint8Array, mode = 0o600): Promise<boolean> {
  await mkdir(path.dirname(filePath), { recursive: true });
  const temporary = `${filePath}.tmp-${process.pid}-${++sequence}`;
  try {
    const handle = await open(temporary, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await link(temporary, filePath);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}

/** Makes the rename itself durable; not possible on every platform, so failures are ignored. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows cannot open a directory for fsync; the rename is still atomic there.
  }
}
