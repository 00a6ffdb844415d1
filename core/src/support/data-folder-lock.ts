// One running Keyframe per data folder. Two services on one folder each take the other's recording
// for an interrupted one (and delete it when the user says so), write the same settings and sidecars,
// and rotate the same log. `<data>/keyframe.lock` names the running one; a lock whose process is
// gone (a crash, a power cut) is stale and taken over.
import { randomUUID } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Type, Value, type Static } from '#typebox';
import { createFileComplete } from './atomic-file.js';
import { errorCode, isNoHardLinks } from './file-errors.js';
import { isPidAlive } from './process-alive.js';

export const LOCK_FILE_NAME = 'keyframe.lock';

const LockOwnerSchema = Type.Object({
  pid: Type.Integer({ minimum: 1 }),
  /** The process's start as the system counts it (Linux: boot id and ticks since boot), so a reused pid is told apart; null elsewhere. */
  processStart: Type.Union([Type.String(), Type.Null()]),
  startedAt: Type.String(),
  hostname: Type.String(),
  /** The HTTP and WebSocket port; 0 until the server listens. */
  port: Type.Integer({ minimum: 0 }),
  instanceId: Type.String(),
});
export type LockOwner = Static<typeof LockOwnerSchema>;

/** `KeyframeService.start` throws it when another live Keyframe holds the data folder; its message says what to do. */
export class DataFolderInUseError extends Error {
  constructor(
    readonly dataFolder: string,
    readonly owner: LockOwner,
    readonly lockFile: string,
  ) {
    const where = owner.hostname === os.hostname() ? '' : ` on ${owner.hostname}`;
    const port = owner.port > 0 ? `, port ${owner.port}` : '';
    super(
      `The data folder ${dataFolder} is in use by another Keyframe (pid ${owner.pid}${port}${where}, running since ${owner.startedAt}). ` +
        'Only one Keyframe can use a data folder at a time: stop the other one, or start this one with another --data-dir. ' +
        `If no other Keyframe is running, delete ${lockFile} and start again.`,
    );
    this.name = 'DataFolderInUseError';
  }
}

/** Attempts at taking the lock when a stale one vanishes or is replaced under our feet. */
const ATTEMPTS = 5;
/** A lock file that cannot be read yet may still be being written (no hard links): wait this long before calling it stale. */
const WRITING_GRACE_MS = 2000;

export class DataFolderLock {
  private constructor(
    readonly file: string,
    private owner: LockOwner,
    /** The dead instance whose lock this one took over, if any. */
    readonly replaced: LockOwner | undefined,
  ) {}

  /** Takes `<dataFolder>/keyframe.lock`, taking over a stale one; throws `DataFolderInUseError` when a live Keyframe holds it. */
  static async acquire(dataFolder: string, port: number): Promise<DataFolderLock> {
    const file = path.join(dataFolder, LOCK_FILE_NAME);
    const me: LockOwner = {
      pid: process.pid,
      processStart: (await processStartOf(process.pid)) ?? null,
      startedAt: new Date().toISOString(),
      hostname: os.hostname(),
      port,
      instanceId: randomUUID(),
    };
    let replaced: LockOwner | undefined;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (await createExclusive(file, me)) return new DataFolderLock(file, me, replaced);
      const owner = await readOwner(file);
      if (owner === 'gone') continue;
      if (owner === 'unreadable') {
        const age = await stat(file).then(
          (info) => Date.now() - info.mtimeMs,
          () => Number.POSITIVE_INFINITY,
        );
        if (age < WRITING_GRACE_MS) {
          await new Promise((resolve) => setTimeout(resolve, WRITING_GRACE_MS - age));
          continue;
        }
      } else if (await isLockOwnerAlive(owner)) {
        throw new DataFolderInUseError(dataFolder, owner, file);
      }
      replaced = (await removeStaleLock(file, owner === 'unreadable' ? undefined : owner, me.instanceId)) ?? replaced;
    }
    throw new Error(`Could not take ${file}: other processes keep replacing it. Is another Keyframe starting on ${dataFolder}?`);
  }

  get instanceId(): string {
    return this.owner.instanceId;
  }

  /** Records the port the server listens on (the one asked for may have been 0). */
  async setPort(port: number): Promise<void> {
    if (!(await this.isStillOurs())) return;
    this.owner = { ...this.owner, port };
    // Written beside and renamed over our own lock: the lock file is never missing or half-written.
    const next = `${this.file}.${this.owner.instanceId}.new`;
    await writeFile(next, serialize(this.owner));
    await rename(next, this.file);
  }

  /** Removes the lock if it is still this instance's. Safe to call twice. */
  async release(): Promise<void> {
    if (await this.isStillOurs()) await unlink(this.file).catch(() => undefined);
  }

  private async isStillOurs(): Promise<boolean> {
    const owner = await readOwner(this.file);
    return typeof owner === 'object' && owner.instanceId === this.owner.instanceId;
  }
}

/**
 * False when the lock's process is gone: no process has its pid, or (Linux) the process with that pid
 * started at another time — a pid reused by some other program. A process on another host, or one
 * this system cannot date, counts as alive: better a refusal the user can clear than two owners.
 */
export async function isLockOwnerAlive(owner: LockOwner): Promise<boolean> {
  if (owner.hostname !== os.hostname()) return true;
  if (!isPidAlive(owner.pid)) return false;
  if (owner.processStart === null) return true;
  const start = await processStartOf(owner.pid);
  return start === undefined || start === owner.processStart;
}

/** `<boot id>:<start ticks>` from /proc (Linux); undefined where there is no /proc or no such process. */
export async function processStartOf(pid: number): Promise<string | undefined> {
  try {
    const [bootId, statLine] = await Promise.all([
      readFile('/proc/sys/kernel/random/boot_id', 'utf8'),
      readFile(`/proc/${pid}/stat`, 'utf8'),
    ]);
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, starttime field 22.
    const fields = statLine.slice(statLine.lastIndexOf(')') + 2).split(' ');
    const ticks = fields[22 - 3];
    return ticks === undefined ? undefined : `${bootId.trim()}:${ticks}`;
  } catch {
    return undefined;
  }
}

const serialize = (owner: LockOwner) => `${JSON.stringify(owner, null, 2)}\n`;

/**
 * Creates the lock holding `owner`, complete from its first instant (written beside it, then hard-linked
 * into place, which fails if a lock exists); false when there is one already.
 */
async function createExclusive(file: string, owner: LockOwner): Promise<boolean> {
  try {
    return await createFileComplete(file, serialize(owner), 0o644);
  } catch (error) {
    if (!isNoHardLinks(error)) throw error;
    return createWithoutLink(file, owner);
  }
}

/** No hard links on this file system: an exclusive create, then the content (readers wait `WRITING_GRACE_MS` for it). */
async function createWithoutLink(file: string, owner: LockOwner): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'wx');
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(serialize(owner));
  } finally {
    await handle.close();
  }
  return true;
}

/** The owner named by `<dataFolder>/keyframe.lock`; undefined when there is no lock or it cannot be read. */
export async function readLockOwner(dataFolder: string): Promise<LockOwner | undefined> {
  const owner = await readOwner(path.join(dataFolder, LOCK_FILE_NAME));
  return typeof owner === 'object' ? owner : undefined;
}

async function readOwner(file: string): Promise<LockOwner | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? 'gone' : 'unreadable';
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return Value.Check(LockOwnerSchema, parsed) ? parsed : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/**
 * Removes the stale lock of `stale` (undefined: an unreadable one). It is first renamed aside — only
 * one taker can do that — and checked: should it be a live lock another starting instance created
 * since we read the stale one, it is put back. Resolves to the owner removed.
 */
async function removeStaleLock(file: string, stale: LockOwner | undefined, takerId: string): Promise<LockOwner | undefined> {
  const aside = `${file}.${takerId}.stale`;
  try {
    await rename(file, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  const taken = await readOwner(aside);
  const isTheStaleOne = typeof taken === 'object' ? taken.instanceId === stale?.instanceId : stale === undefined;
  if (!isTheStaleOne) await link(aside, file).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
  return isTheStaleOne ? stale : undefined;
}
