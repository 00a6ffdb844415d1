import { expect } from 'chai';
import { toPgm } from '../../sdk/rgb-image.js';
import { createOfflineWorker, SharedTextRecognizer } from './text-recognizer.js';

/** A black bar on white: recognition runs (what it makes of it does not matter here). */
const blank = toPgm({ width: 64, height: 32, data: Buffer.alloc(64 * 32, 255).fill(0, 64 * 12, 64 * 20) });

describe('SharedTextRecognizer', function () {
  this.timeout(30_000);

  it('starts one worker on first use, shares it, and ends it when the last user lets go', async () => {
    let started = 0;
    const counting = new SharedTextRecognizer(async () => {
      started += 1;
      return createOfflineWorker('line');
    });
    const first = counting.lease();
    const second = counting.lease();
    expect(counting.running).to.equal(false); // nothing is started before a frame is read
    expect(await first.recognize(blank)).to.have.keys('text', 'confidence');
    await second.recognize(blank);
    expect(started).to.equal(1);
    await first.release();
    expect(counting.running).to.equal(true);
    await second.release();
    expect(counting.running).to.equal(false);
    await second.release(); // twice is harmless
    await first.recognize(blank).then(
      () => expect.fail('a released lease must not read'),
      (error: Error) => expect(error.message).to.contain('released'),
    );

    const third = counting.lease();
    await third.recognize(blank);
    expect(started).to.equal(2);
    await third.release();
  });
});
