import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { needsRemux, readMp4Layout } from './mp4-layout.js';

const box = (type: string, body: Buffer = Buffer.alloc(0)) => {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
};

describe('MP4 layout', () => {
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-mp4-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('tells fragmented, moov-last and truncated MP4s from regular ones', async () => {
    const write = async (name: string, data: Buffer) => {
      const target = path.join(folder, name);
      await writeFile(target, data);
      return readMp4Layout(target);
    };
    const regular = await write(
      'regular.mp4',
      Buffer.concat([box('ftyp', Buffer.alloc(8)), box('moov', box('trak')), box('mdat', Buffer.alloc(100))]),
    );
    expect(regular).to.deep.equal({ boxes: ['ftyp', 'moov', 'mdat'], fragmented: false, complete: true });
    expect(needsRemux(regular)).to.equal(false);
    const fragmented = await write(
      'fragmented.mp4',
      Buffer.concat([box('ftyp'), box('moov', Buffer.concat([box('trak'), box('mvex')])), box('moof'), box('mdat', Buffer.alloc(10))]),
    );
    expect(fragmented.fragmented).to.equal(true);
    expect(needsRemux(fragmented)).to.equal(true);
    const emptyFragmented = await write('empty-fragmented.mp4', Buffer.concat([box('ftyp'), box('moov', box('mvex'))]));
    expect(needsRemux(emptyFragmented)).to.equal(true);
    const moovLast = await write('moov-last.mp4', Buffer.concat([box('ftyp'), box('mdat', Buffer.alloc(10)), box('moov')]));
    expect(needsRemux(moovLast)).to.equal(true);
    const truncated = await write(
      'truncated.mp4',
      Buffer.concat([box('ftyp'), box('moov'), box('mdat', Buffer.alloc(100))]).subarray(0, 60),
    );
    expect(truncated.complete).to.equal(false);
    expect(needsRemux(truncated)).to.equal(true);
    expect(needsRemux(await write('garbage.mp4', Buffer.from('not a video at all')))).to.equal(true);
  });
});
