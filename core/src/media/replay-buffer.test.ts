import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { locateFfmpegTools } from './ffmpeg-toolbox.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { probeMedia } from './probe.js';
import { concatSegments, joinedSegmentsUrl, quoteConcatPath, ReplayBuffer, segmentsToPrune, type SegmentFile } from './replay-buffer.js';
import { recordingEncodingArgs } from './session-encoding.js';
import { crfVideo } from '../testing/fixtures.js';

const MB = 1024 * 1024;

/** Segments 0..count-1 of `sizes` bytes each, the last one still being written. */
function fakeSegments(count: number, size = MB): SegmentFile[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    file: `segment-${index}.ts`,
    sizeBytes: size,
    complete: index < count - 1,
  }));
}

const indexes = (segments: readonly SegmentFile[]) => segments.map((segment) => segment.index);
const segmentName = (index: number) => `segment-${String(index).padStart(6, '0')}.ts`;

describe('replay buffer', function () {
  this.timeout(30000);
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-buffer-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  describe('window', () => {
    it('keeps the duration plus one segment of complete segments, and the one being written', () => {
      const limits = { durationSeconds: 4, segmentSeconds: 2, maxBytes: 1000 * MB };
      expect(indexes(segmentsToPrune(fakeSegments(10), limits))).to.deep.equal([0, 1, 2, 3, 4, 5]); // keeps 6, 7, 8 + 9 being written
      expect(indexes(segmentsToPrune(fakeSegments(4), limits))).to.deep.equal([]);
      expect(indexes(segmentsToPrune(fakeSegments(10), { ...limits, durationSeconds: 5 }))).to.deep.equal([0, 1, 2, 3, 4]); // 5 s = 3 segments + 1
      expect(indexes(segmentsToPrune(fakeSegments(1), limits))).to.deep.equal([]);
    });

    it('deletes the oldest segments while the buffer is over its size limit', () => {
      const limits = { durationSeconds: 30, segmentSeconds: 2, maxBytes: 3.5 * MB };
      expect(indexes(segmentsToPrune(fakeSegments(6), limits))).to.deep.equal([0, 1, 2]); // 6 MB -> 3 MB
      // The segment being written counts, but is never deleted.
      expect(indexes(segmentsToPrune(fakeSegments(2, 5 * MB), limits))).to.deep.equal([0]);
      expect(indexes(segmentsToPrune(fakeSegments(1, 5 * MB), limits))).to.deep.equal([]);
    });

    it('leaves segments a save is reading, and deletes nothing newer than them for size', () => {
      const limits = { durationSeconds: 2, segmentSeconds: 2, maxBytes: 2.5 * MB };
      expect(indexes(segmentsToPrune(fakeSegments(8), limits, new Set([1, 2])))).to.deep.equal([0, 3, 4]);
      expect(indexes(segmentsToPrune(fakeSegments(8), limits, new Set([5])))).to.deep.equal([0, 1, 2, 3, 4]);
    });
  });

  describe('segment files', () => {
    const writeSegments = async (count: number, bytes = 1000) => {
      for (let index = 0; index < count; index++) await writeFile(path.join(folder, segmentName(index)), Buffer.alloc(bytes));
    };

    it('prunes fake segment files by duration', async () => {
      const buffer = new ReplayBuffer(folder, { durationSeconds: 4, segmentSeconds: 2, maxBytes: MB });
      await writeSegments(8);
      await writeFile(path.join(folder, 'unrelated.txt'), 'kept');
      expect(indexes(await buffer.prune())).to.deep.equal([0, 1, 2, 3]);
      expect((await readdir(folder)).sort()).to.deep.equal([
        segmentName(4),
        segmentName(5),
        segmentName(6),
        segmentName(7),
        'unrelated.txt',
      ]);
      expect((await buffer.segments()).map((segment) => segment.complete)).to.deep.equal([true, true, true, false]);
      buffer.markEnded();
      expect((await buffer.segments()).map((segment) => segment.complete)).to.deep.equal([true, true, true, true]);
    });

    it('prunes fake segment files by size, oldest first', async () => {
      const buffer = new ReplayBuffer(folder, { durationSeconds: 60, segmentSeconds: 2, maxBytes: 3500 });
      await writeSegments(6);
      expect(indexes(await buffer.prune())).to.deep.equal([0, 1, 2]);
      expect(await readdir(folder)).to.deep.equal([segmentName(3), segmentName(4), segmentName(5)]);
    });

    it('takes the newest complete segments up to the one asked for, pinned until released', async () => {
      const buffer = new ReplayBuffer(folder, { durationSeconds: 4, segmentSeconds: 2, maxBytes: MB });
      await writeSegments(4);
      expect(await buffer.writingIndex()).to.equal(3);
      expect(await buffer.waitUntilComplete(3, 50)).to.equal(false);
      setTimeout(() => void writeFile(path.join(folder, segmentName(4)), Buffer.alloc(1000)), 150);
      expect(await buffer.waitUntilComplete(3, 5000)).to.equal(true);

      const span = (await buffer.take(4, 3))!;
      expect(indexes(span.segments)).to.deep.equal([2, 3]);
      expect(span).to.deep.include({ startSeconds: 4, durationSeconds: 4 });
      for (const [seconds, until, expected] of [
        [5, 3, [1, 2, 3]],
        [60, 2, [0, 1, 2]],
      ] as const) {
        // Rounded up to whole segments; when less is buffered, all of it.
        const other = (await buffer.take(seconds, until))!;
        expect(indexes(other.segments)).to.deep.equal(expected);
        other.release();
        other.release();
      }

      await writeSegments(9);
      expect(indexes(await buffer.prune())).to.deep.equal([0, 1, 4]); // 2 and 3 are read by the save
      span.release();
      expect(indexes(await buffer.prune())).to.deep.equal([2, 3]);

      const empty = new ReplayBuffer(path.join(folder, 'none'), { durationSeconds: 4, segmentSeconds: 2, maxBytes: MB });
      expect(await empty.take(4, 0)).to.equal(undefined);
      expect(await empty.writingIndex()).to.equal(0);
      await buffer.remove();
      expect(existsSync(folder)).to.equal(false);
    });
  });

  it('joins real segments by stream copy into an MP4 of their length', async () => {
    const { ffmpeg, ffprobe } = locateFfmpegTools();
    const segments = path.join(folder, "it's 100% a|b");
    await mkdir(segments);
    const buffer = new ReplayBuffer(segments, { durationSeconds: 4, segmentSeconds: 2, maxBytes: 100 * MB });
    const format = { width: 320, height: 180, frameRate: 30 };
    const run = FfmpegProcess.start({
      ffmpegPath: ffmpeg.path,
      args: recordingEncodingArgs({
        inputs: {
          args: ['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=30:duration=7', '-f', 'lavfi', '-i', 'sine=duration=7'],
          video: '0:v',
          audioTracks: [{ map: '1:a', name: 'Full Mix' }],
        },
        video: crfVideo(format, 30),
        outputs: { buffer: { pattern: buffer.pattern, segmentSeconds: 2 } },
      }),
    });
    expect((await run.exited).errorText).to.equal('');
    buffer.markEnded();
    expect(indexes(await buffer.segments())).to.deep.equal([0, 1, 2, 3]);

    const span = (await buffer.take(4, 3))!;
    expect(indexes(span.segments)).to.deep.equal([2, 3]); // 4-6 s and the last, short one
    const middle = (await buffer.take(4, 2))!;
    const target = path.join(folder, 'Replay Buffers', 'Game', 'replay.mp4');
    await concatSegments({ ffmpegPath: ffmpeg.path, segments: middle.segments, target });
    expect(await readdir(path.dirname(target))).to.deep.equal(['replay.mp4']);
    const probed = await probeMedia(ffprobe.path, target);
    expect(probed.durationSeconds).to.be.within(3.9, 4.2);
    expect(probed.streams.map((stream) => `${stream.type}:${stream.codec}`)).to.deep.equal(['video:h264', 'audio:aac']);
    expect((await readdir(segments)).filter((name) => name.endsWith('.ffconcat'))).to.deep.equal([]);

    // Paths without the protocol's separator are read as one byte stream: the same file.
    const plain = path.join(folder, 'plain');
    await mkdir(plain);
    const copies = await Promise.all(
      middle.segments.map(async (segment) => {
        const file = path.join(plain, path.basename(segment.file));
        await copyFile(segment.file, file);
        return { ...segment, file };
      }),
    );
    expect(joinedSegmentsUrl(copies.map((segment) => segment.file))).to.match(/^concat:/);
    const joined = path.join(folder, 'Replay Buffers', 'Game', 'joined.mp4');
    await concatSegments({ ffmpegPath: ffmpeg.path, segments: copies, target: joined });
    const probedJoined = await probeMedia(ffprobe.path, joined);
    expect(probedJoined.durationSeconds).to.be.within(3.9, 4.2);
    expect(probedJoined.streams.map((stream) => `${stream.type}:${stream.codec}`)).to.deep.equal(['video:h264', 'audio:aac']);
  });

  it('joins segments byte by byte only where their paths fit in one concat URL', () => {
    expect(joinedSegmentsUrl(['/c/b/1.ts', '/c/b/2.ts'])).to.equal('concat:/c/b/1.ts|/c/b/2.ts');
    expect(joinedSegmentsUrl(['/c/a|b/1.ts'])).to.equal(undefined);
    expect(joinedSegmentsUrl(Array.from({ length: 1000 }, (_, index) => `/c/buffer/segment-${index}.ts`))).to.equal(undefined);
  });

  it('writes nothing under the target name when joining fails', async () => {
    const { ffmpeg } = locateFfmpegTools();
    await writeFile(path.join(folder, segmentName(0)), 'not a transport stream');
    const target = path.join(folder, 'out', 'replay.mp4');
    try {
      await concatSegments({
        ffmpegPath: ffmpeg.path,
        segments: [{ index: 0, file: path.join(folder, segmentName(0)), sizeBytes: 22, complete: true }],
        target,
      });
      expect.fail('joining garbage must fail');
    } catch (error) {
      expect((error as Error).message).to.match(/could not join/);
    }
    expect(await readdir(path.dirname(target))).to.deep.equal([]);
  });

  it('quotes concat list paths', () => {
    expect(quoteConcatPath("/tmp/it's/a.ts")).to.equal("'/tmp/it'\\''s/a.ts'");
    expect(quoteConcatPath('C:\\cache\\a.ts')).to.equal("'C:/cache/a.ts'");
  });
});
