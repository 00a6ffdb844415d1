// A short exclusive lock between processes for a read-modify-write of one small file: `<file>.lock` is
// created exclusively, holds the owner's pid, and is removed when done. A lock whose process is gone, or
// older than any such write could take, is stale and taken over.
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from './file-errors.js';
import { isPidAlive } from './process-alive.js';

/** No read-modify-write of a small file takes this long: a lock this old was left by a process that hung or died. */
const STALE_AFTER_MS = 30_000;
const RETRY_MS = 15;

/** Runs `action` while holding `lockFile`; waits up to `timeoutMs` for another process to let go of it. */
export async function withFileLock<T>(lockFile: string, action: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  await mkdir(path.dirname(lockFile), { recursive: true });
  for (;;) {
    try {
      const handle = await open(lockFile, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    if (await isStale(lockFile)) {
      await rm(lockFile, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`${lockFile} is held by another process for more than ${timeoutMs} ms: if no Keyframe is running, delete it`);
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS + Math.random() * RETRY_MS));
  }
  try {
    return await action();
  } finally {
    await rm(lockFile, { force: true });
  }
}

async function isStale(lockFile: string): Promise<boolean> {
  const [owner, info] = await Promise.all([readFile(lockFile, 'utf8').catch(() => ''), stat(lockFile).catch(() => undefined)]);
  if (!info) return false; // gone already: the next attempt takes it
  if (Date.now() - info.mtimeMs > STALE_AFTER_MS) return true;
  const pid = Number(owner);
  // An empty file is being written right now; a pid that no longer runs left it behind.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  return !isPidAlive(pid);
}
