import { expect } from 'chai';
import { DecoderPool, DecoderPoolFull, defaultDecoderPoolLimits } from './decoder-pool.js';

describe('decoder pool', () => {
  it('runs at most its concurrency at once, queues a few more and refuses the rest at once', async () => {
    const pool = new DecoderPool({ concurrency: 2, queue: 3 });
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const decode = () =>
      new Promise<string>((resolve) => {
        running++;
        most = Math.max(most, running);
        releases.push(() => {
          running--;
          resolve('frame');
        });
      });
    const asks = Array.from({ length: 8 }, () =>
      pool.run(decode).then(
        (frame) => frame,
        (error: unknown) => error,
      ),
    );
    const refused = await Promise.all(asks.slice(5));
    expect(refused.every((error) => error instanceof DecoderPoolFull)).to.equal(true);
    while (releases.length > 0 || running > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    expect(await Promise.all(asks.slice(0, 5))).to.deep.equal(Array(5).fill('frame'));
    expect(most).to.equal(2);
    // A failed decode frees its slot.
    expect(await pool.run(() => Promise.reject(new Error('broken'))).catch((error: Error) => error.message)).to.equal('broken');
    expect(await pool.run(() => Promise.resolve('again'))).to.equal('again');
  });

  it('leaves one core to the rest of the machine, and uses at most two', () => {
    expect([1, 2, 3, 16].map((cores) => defaultDecoderPoolLimits(cores).concurrency)).to.deep.equal([1, 1, 2, 2]);
  });
});
