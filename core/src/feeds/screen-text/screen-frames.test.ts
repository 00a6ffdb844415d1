import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { ScreenFrames, screenFrameSize } from './screen-frames.js';

describe('screen frames', () => {
  it('cuts the raw stream into frames whatever the chunks, keeps the newest, times them by their number', () => {
    const frames = new ScreenFrames({ width: 2, height: 1 }, 5);
    const stream = Buffer.from([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7]);
    frames.push(stream.subarray(0, 4));
    expect(frames.latest()).to.equal(undefined);
    frames.push(stream.subarray(4, 6));
    expect(frames.latest()).to.deep.equal({ width: 2, height: 1, data: Buffer.from([1, 1, 1, 2, 2, 2]), timeMs: 0 });
    const first = frames.latest();
    frames.push(stream.subarray(6, 9));
    expect(first!.data).to.deep.equal(Buffer.from([1, 1, 1, 2, 2, 2])); // intact while it is the newest
    frames.push(stream.subarray(9));
    expect(frames.latest()).to.deep.equal({ width: 2, height: 1, data: Buffer.from([5, 5, 5, 6, 6, 6]), timeMs: 400 });
    expect(frames.count).to.equal(3);
  });

  it('fills two buffers in turn, whatever the number of frames', () => {
    const frames = new ScreenFrames({ width: 1, height: 1 }, 5);
    const buffers = new Set<Buffer>();
    for (let value = 0; value < 10; value++) {
      frames.push(Buffer.from([value, value, value]));
      buffers.add(frames.latest()!.data);
      expect([...frames.latest()!.data]).to.deep.equal([value, value, value]);
    }
    expect(buffers.size).to.equal(2);
  });

  it("reads a child process's pipe to its end, in chunks of any size, and lets the process close", async () => {
    // Three 64x64 frames (12 KiB each) of bytes 1, 2, 3, written in 5,000-byte pieces.
    const script = `const all = Buffer.concat([1, 2, 3].map((v) => Buffer.alloc(12288, v)));
      for (let at = 0; at < all.length; at += 5000) process.stdout.write(all.subarray(at, at + 5000));`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const frames = new ScreenFrames({ width: 64, height: 64 }, 5);
    const errors: Error[] = [];
    frames.follow(child.stdout, (error) => errors.push(error));
    await once(child, 'close');
    await new Promise((resolve) => setTimeout(resolve, 100)); // the last bytes may follow the close
    expect(frames.count).to.equal(3);
    expect(frames.latest()!.timeMs).to.equal(400);
    expect(frames.latest()!.data.every((value) => value === 3)).to.equal(true);
    expect(errors).to.deep.equal([]);
  });

  it('keeps the captured aspect ratio, at most 1080 lines', () => {
    expect(screenFrameSize({ width: 1920, height: 1080 })).to.deep.equal({ width: 1920, height: 1080 });
    expect(screenFrameSize({ width: 3440, height: 1440 })).to.deep.equal({ width: 2580, height: 1080 });
    expect(screenFrameSize({ width: 1280, height: 720 })).to.deep.equal({ width: 1280, height: 720 });
  });
});
