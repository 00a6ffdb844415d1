import { expect } from 'chai';
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

  it('keeps the captured aspect ratio, at most 1080 lines', () => {
    expect(screenFrameSize({ width: 1920, height: 1080 })).to.deep.equal({ width: 1920, height: 1080 });
    expect(screenFrameSize({ width: 3440, height: 1440 })).to.deep.equal({ width: 2580, height: 1080 });
    expect(screenFrameSize({ width: 1280, height: 720 })).to.deep.equal({ width: 1280, height: 720 });
  });
});
