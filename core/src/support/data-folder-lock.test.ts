import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  DataFolderInUseError,
  DataFolderLock,
  isLockOwnerAlive,
  LOCK_FILE_NAME,
  processStartOf,
  type LockOwner,
} from './data-folder-lock.js';

describe('DataFolderLock', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-lock-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  const lockFile = () => path.join(folder, LOCK_FILE_NAME);
  const ownerWith = (change: Partial<LockOwner>): LockOwner => ({
    pid: process.pid,
    processStart: null,
    startedAt: '2026-01-01T10:00:00.000Z',
    hostname: os.hostname(),
    port: 44030,
    instanceId: randomUUID(),
    ...change,
  });
  /** A pid no process has: a child that has exited and been reaped. */
  const deadPid = async (): Promise<number> => {
    const child = spawn('true');
    await new Promise((resolve) => child.once('exit', resolve));
    return child.pid!;
  };

  it('is taken once: a second taker gets DataFolderInUseError naming the folder, pid and port; released, it can be taken again', async () => {
    const first = await DataFolderLock.acquire(folder, 0);
    await first.setPort(45123);
    const refusal = await DataFolderLock.acquire(folder, 0).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).to.be.instanceOf(DataFolderInUseError);
    const message = (refusal as Error).message;
    expect(message).to.include(folder).and.include(`pid ${process.pid}`).and.include('port 45123').and.include(lockFile());
    await first.release();
    const second = await DataFolderLock.acquire(folder, 0);
    expect(JSON.parse(await readFile(lockFile(), 'utf8'))).to.include({ pid: process.pid, instanceId: second.instanceId });
    await second.release();
    expect(await readdir(folder)).to.deep.equal([]);
  });

  it('takes over a lock whose pid no process has', async () => {
    const stale = ownerWith({ pid: await deadPid() });
    await writeFile(lockFile(), JSON.stringify(stale));
    expect(await isLockOwnerAlive(stale)).to.equal(false);
    const lock = await DataFolderLock.acquire(folder, 0);
    expect(lock.replaced?.instanceId).to.equal(stale.instanceId);
    expect(JSON.parse(await readFile(lockFile(), 'utf8')).instanceId).to.equal(lock.instanceId);
    await lock.release();
  });

  it('takes over a lock whose pid now belongs to another program (started at another time)', async function () {
    if (process.platform !== 'linux') this.skip();
    const sleeper = spawn('sleep', ['30']);
    try {
      await new Promise((resolve) => sleeper.once('spawn', resolve));
      const sleeperStart = await processStartOf(sleeper.pid!);
      expect(sleeperStart).to.be.a('string');
      // The lock of a Keyframe that died, whose pid the system has since given to `sleep`.
      const stale = ownerWith({ pid: sleeper.pid!, processStart: `${sleeperStart!.split(':')[0]}:1` });
      await writeFile(lockFile(), JSON.stringify(stale));
      expect(await isLockOwnerAlive(stale)).to.equal(false);
      expect(await isLockOwnerAlive({ ...stale, processStart: sleeperStart! })).to.equal(true);
      const lock = await DataFolderLock.acquire(folder, 0);
      expect(lock.replaced?.pid).to.equal(sleeper.pid);
      await lock.release();
    } finally {
      sleeper.kill();
    }
  });

  it('takes over an unreadable lock once it is old, and only one of several starting takers wins', async () => {
    await writeFile(lockFile(), '{"pid": 12');
    const past = new Date(Date.now() - 60_000);
    await utimes(lockFile(), past, past);
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => DataFolderLock.acquire(folder, 0)));
    const taken = results.filter((result) => result.status === 'fulfilled');
    expect(taken).to.have.length(1);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).to.be.instanceOf(DataFolderInUseError);
    }
    await (taken[0] as PromiseFulfilledResult<DataFolderLock>).value.release();
  });
});
