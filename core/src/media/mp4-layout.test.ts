import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { needsRemux, readMp4Duration, readMp4Layout } from './mp4-layout.js';

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

  it('reads the length as ffprobe does: the latest track end (empty edits in front, then the media) less the earliest start', async () => {
    const header = (type: string, version: 0 | 1, timeScale: number, duration: number) => {
      const body = Buffer.alloc(version === 1 ? 112 : 100);
      body.writeUInt8(version, 0);
      body.writeUInt32BE(timeScale, version === 1 ? 20 : 12);
      if (version === 1) body.writeBigUInt64BE(BigInt(duration), 24);
      else body.writeUInt32BE(duration, 16);
      return box(type, body);
    };
    const elst = (...entries: [number, number][]) => {
      const body = Buffer.alloc(8 + entries.length * 12);
      body.writeUInt32BE(entries.length, 4);
      entries.forEach(([duration, mediaTime], index) => {
        body.writeUInt32BE(duration, 8 + index * 12);
        body.writeInt32BE(mediaTime, 12 + index * 12);
        body.writeUInt32BE(0x10000, 16 + index * 12);
      });
      return box('edts', box('elst', body));
    };
    const trak = (timeScale: number, duration: number, edits?: Buffer, version: 0 | 1 = 0) =>
      box(
        'trak',
        Buffer.concat([
          box('tkhd', Buffer.alloc(84)),
          ...(edits ? [edits] : []),
          box('mdia', header('mdhd', version, timeScale, duration)),
        ]),
      );
    const length = async (name: string, ...moov: Buffer[]) => {
      await writeFile(
        path.join(folder, name),
        Buffer.concat([box('ftyp'), box('moov', Buffer.concat([header('mvhd', 0, 1000, 1), ...moov])), box('mdat')]),
      );
      return readMp4Duration(path.join(folder, name));
    };
    // A saved replay: video 4 s; the sound starts 16 ms in (an empty edit) and lasts 191488 / 48000 s.
    expect(
      await length('replay.mp4', trak(90_000, 360_000, elst([4000, 0])), trak(48_000, 191_488, elst([16, -1], [3990, 0]))),
    ).to.be.closeTo(4.005333, 1e-6);
    expect(await length('v1.mp4', trak(90_000, 450_000, undefined, 1))).to.equal(5);
    // An edit that skips into the media (B-frame delay) is read by ffprobe another way: no length.
    expect(await length('skips.mp4', trak(90_000, 360_000, elst([4000, 3000])))).to.be.undefined;
    expect(await length('fragmented.mp4', trak(90_000, 0), box('mvex'))).to.be.undefined;
    await writeFile(path.join(folder, 'none.mp4'), Buffer.concat([box('ftyp'), box('mdat', Buffer.alloc(10))]));
    expect(await readMp4Duration(path.join(folder, 'none.mp4'))).to.be.undefined;
  });
});
