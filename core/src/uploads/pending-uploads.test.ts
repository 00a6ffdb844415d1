import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PendingUploads, pendingUploadsFile, type PendingUpload } from './pending-uploads.js';

describe('PendingUploads', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-pending-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  const record = (fileName: string, change: Partial<PendingUpload> = {}): PendingUpload => ({
    contentId: 'a'.repeat(32),
    filePath: `/videos/${fileName}`,
    fileName,
    title: 'Title',
    metadata: { filename: fileName },
    phase: 'uploading',
    ...change,
  });

  it('keeps what is under way for the next run, the newest version of each', async () => {
    const pending = new PendingUploads(pendingUploadsFile(folder));
    await Promise.all([
      pending.put(record('a.mp4')),
      pending.put(record('b.mp4')),
      pending.put(record('a.mp4', { phase: 'processing', uploadUrl: 'http://127.0.0.1/files/1' })),
    ]);
    await pending.remove('b.mp4');
    expect(await new PendingUploads(pendingUploadsFile(folder)).load()).to.deep.equal([
      record('a.mp4', { phase: 'processing', uploadUrl: 'http://127.0.0.1/files/1' }),
    ]);
  });

  it('reads a missing or damaged file as nothing pending', async () => {
    const pending = new PendingUploads(pendingUploadsFile(folder));
    expect(await pending.load()).to.deep.equal([]);
    await pending.put(record('a.mp4'));
    for (const text of ['{broken', '[{"fileName":"a.mp4"}]', '{}']) {
      await writeFile(pendingUploadsFile(folder), text);
      expect(await pending.load(), text).to.deep.equal([]);
    }
  });
});
