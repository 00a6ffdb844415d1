import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileWriters } from './file-writers.js';

describe('FileWriters', () => {
  let folder: string;
  const children: ChildProcess[] = [];
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-writers-'));
  });
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill();
    await rm(folder, { recursive: true, force: true });
  });

  /** A stand-in for another process's recorder: a shell holding `file` open (`>>` to write, `<` to read) until killed. */
  const holdOpen = async (file: string, redirect: '>>' | '<'): Promise<ChildProcess> => {
    const child = spawn('sh', ['-c', `exec 3${redirect}"$1"; echo ready; exec sleep 30`, 'holder', file]);
    children.push(child);
    await new Promise((resolve) => child.stdout!.once('data', resolve));
    return child;
  };

  it('names the live process that has a file open for writing; a reader, or nobody, is not a writer', async function () {
    if (process.platform !== 'linux') this.skip();
    const [written, read, closed] = ['written.mp4', 'read.mp4', 'closed.mp4'].map((name) => path.join(folder, name)) as [
      string,
      string,
      string,
    ];
    for (const file of [written, read, closed]) await writeFile(file, 'x');
    const writer = await holdOpen(written, '>>');
    await holdOpen(read, '<');
    const writers = await FileWriters.snapshot();
    // Modified just now: on Linux only the open descriptors count, so a crash a second ago is still recoverable.
    expect(await writers.busyReason(written, (await stat(written)).mtimeMs)).to.equal(`process ${writer.pid} has it open for writing`);
    expect(await writers.busyReason(read, (await stat(read)).mtimeMs)).to.equal(undefined);
    expect(await writers.busyReason(closed, (await stat(closed)).mtimeMs)).to.equal(undefined);
  });
});
