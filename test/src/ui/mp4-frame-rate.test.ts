// The trim editor's frame step reads the frame rate from the MP4 itself (the browser's player does not say it):
// the UI's own reader, run in Node on files ffmpeg writes the ways Keyframe's videos come (clips: a regular MP4;
// recordings: fragmented), and on what it must not guess for.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPath } from '../kit/processes.js';
import { importUiModule } from '../kit/ui-module.js';

type ByteReader = (offset: number, length: number) => Promise<Uint8Array>;
interface Mp4FrameRateModule {
  readMp4FrameRate(read: ByteReader): Promise<number | undefined>;
}

const run = promisify(execFile);

/** A `ByteReader` over a local file, as the UI's range requests read the service's media route. */
async function frameRateOf(readMp4FrameRate: Mp4FrameRateModule['readMp4FrameRate'], file: string): Promise<number | undefined> {
  const handle = await open(file);
  try {
    return await readMp4FrameRate(async (offset, length) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return new Uint8Array(buffer.subarray(0, bytesRead));
    });
  } finally {
    await handle.close();
  }
}

describe('ui: the frame rate the trim editor steps by', function () {
  this.timeout(60_000);
  let readMp4FrameRate: Mp4FrameRateModule['readMp4FrameRate'];
  let folder: string;
  before(async () => {
    ({ readMp4FrameRate } = await importUiModule<Mp4FrameRateModule>('video/mp4-frame-rate.ts'));
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-frame-rate-'));
  });
  after(() => rm(folder, { recursive: true, force: true }));

  const encode = async (name: string, rate: string, extra: string[] = []) => {
    const file = path.join(folder, name);
    const source = ['-f', 'lavfi', '-i', `testsrc=size=160x90:rate=${rate}:duration=1`];
    await run(ffmpegPath(), ['-v', 'error', '-y', ...source, '-c:v', 'libx264', '-preset', 'ultrafast', ...extra, file]);
    return file;
  };

  it('reads a regular MP4 (a clip) from its sample table: 30, 25 and NTSC 29.97 fps', async () => {
    expect(await frameRateOf(readMp4FrameRate, await encode('clip-30.mp4', '30'))).to.equal(30);
    expect(await frameRateOf(readMp4FrameRate, await encode('clip-25.mp4', '25'))).to.equal(25);
    expect(await frameRateOf(readMp4FrameRate, await encode('clip-ntsc.mp4', '30000/1001'))).to.be.closeTo(29.97, 0.001);
  });

  it('reads a fragmented MP4 (a recording) from its first fragment: 60 fps', async () => {
    const file = await encode('session-60.mp4', '60', ['-movflags', 'frag_keyframe+empty_moov+default_base_moof']);
    expect(await frameRateOf(readMp4FrameRate, file)).to.equal(60);
  });

  it('guesses nothing for another container, a truncated file or noise', async () => {
    expect(await frameRateOf(readMp4FrameRate, await encode('video.mkv', '30'))).to.equal(undefined);
    const noise = path.join(folder, 'noise.mp4');
    await writeFile(noise, Buffer.from('not a video at all, only words'.repeat(40)));
    expect(await frameRateOf(readMp4FrameRate, noise)).to.equal(undefined);
    const truncated = path.join(folder, 'truncated.mp4');
    const whole = await encode('whole.mp4', '30');
    const handle = await open(whole);
    const head = Buffer.alloc(200);
    await handle.read(head, 0, 200, 0);
    await handle.close();
    await writeFile(truncated, head);
    expect(await frameRateOf(readMp4FrameRate, truncated)).to.equal(undefined);
  });
});
