import 'reflect-metadata';
import { IntegrationTestBed } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { OpenWorldCrimeIntegration } from './open-world-crime-integration.js';
import { WASTED_TEXT } from './wasted-text.js';

const STARTED = new Date('2026-01-01T12:00:00Z');
const read = (text: string, frameTimeMs: number) => ({ text, confidence: 90, frameTimeMs });

describe('OpenWorldCrimeIntegration', () => {
  it('reads the middle of the screen and bookmarks each death screen once, at its first frame', async () => {
    const bed = new IntegrationTestBed({ key: 'openWorldCrime' });
    bed.recorder.start({ startedAt: STARTED, game: 'Grand Theft Auto V' });
    const integration = bed.resolve(OpenWorldCrimeIntegration);
    await integration.activate({ name: 'Grand Theft Auto V' });
    const feed = bed.feeds.latest('screenText', 'deaths');
    expect(feed.options).to.deep.equal(WASTED_TEXT);
    for (const [text, ms] of [
      ['', 0],
      ['WASTED', 61_400],
      ['WASTED', 61_600],
      ['WASTED', 63_000],
      ['BUSTED', 90_000],
      ['VASTED', 120_000],
    ] as const) {
      await feed.deliver(read(text, ms));
    }
    expect(bed.bookmarks.added).to.deep.equal([
      { type: 'Death', at: new Date(STARTED.getTime() + 61_400) },
      { type: 'Death', at: new Date(STARTED.getTime() + 120_000) },
    ]);
    await integration.deactivate();
    expect(feed.closed).to.equal(true);
    expect(bed.logger.problems).to.deep.equal([]);
  });
});
