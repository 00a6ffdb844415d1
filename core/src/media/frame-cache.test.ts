import { expect } from 'chai';
import { FrameCache } from './frame-cache.js';

describe('frame cache', () => {
  it('reads a frame once for everyone who asks meanwhile and after', async () => {
    const cache = new FrameCache(1000);
    let reads = 0;
    const read = async () => {
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return Buffer.alloc(100, 1);
    };
    const frames = await Promise.all([cache.get('a', read), cache.get('a', read), cache.get('a', read)]);
    expect(await cache.get('a', read)).to.equal(frames[0]);
    expect(frames.every((frame) => frame === frames[0])).to.equal(true);
    expect(reads).to.equal(1);
  });

  it('keeps what fits in its bytes, least recently used out first, and nothing that failed', async () => {
    const cache = new FrameCache(250);
    const frame = (byte: number) => () => Promise.resolve(Buffer.alloc(100, byte));
    await cache.get('a', frame(1));
    await cache.get('b', frame(2));
    await cache.get('a', frame(9)); // a is used again: b is now the oldest
    await cache.get('c', frame(3));
    expect(cache.size).to.deep.equal({ frames: 2, bytes: 200 });
    expect((await cache.get('a', frame(9)))![0]).to.equal(1);
    expect((await cache.get('b', frame(8)))![0]).to.equal(8);

    expect(await cache.get('none', () => Promise.resolve(undefined))).to.equal(undefined);
    expect(await cache.get('broken', () => Promise.reject(new Error('busy'))).catch((error: Error) => error.message)).to.equal('busy');
    expect((await cache.get('broken', frame(4)))![0]).to.equal(4);
    expect(await cache.get('huge', () => Promise.resolve(Buffer.alloc(300)))).to.have.length(300);
    expect(cache.size.bytes).to.be.at.most(250);
  });
});
