import 'reflect-metadata';
import { IntegrationTestBed } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { EVENT_TEXT } from './event-text.js';
import { VehicleSoccerIntegration } from './vehicle-soccer-integration.js';

const STARTED = new Date('2026-01-01T12:00:00Z');
const read = (text: string, frameTimeMs: number) => ({ text, confidence: 90, frameTimeMs });

describe('VehicleSoccerIntegration', () => {
  let bed: IntegrationTestBed;
  let integration: VehicleSoccerIntegration;

  beforeEach(async () => {
    bed = new IntegrationTestBed({ key: 'vehicleSoccer' });
    bed.recorder.start({ startedAt: STARTED, game: 'Rocket League' });
    integration = bed.resolve(VehicleSoccerIntegration);
    await integration.activate({ name: 'Rocket League' });
  });

  it('reads the event band and bookmarks goals and assists at the time of their frame', async () => {
    const feed = bed.feeds.latest('screenText', 'events');
    expect(feed.options).to.deep.equal(EVENT_TEXT);
    for (const [text, ms] of [
      ['', 0],
      ['+100 GOAL', 4250],
      ['+100 GOAL', 4500],
      ['ASSIST', 9000],
      ['+100 GOAL', 10_000],
    ] as const) {
      await feed.deliver(read(text, ms));
    }
    expect(bed.bookmarks.added).to.deep.equal([
      { type: 'Goal', at: new Date(STARTED.getTime() + 4250) },
      { type: 'Assist', at: new Date(STARTED.getTime() + 9000) },
      { type: 'Goal', at: new Date(STARTED.getTime() + 10_000) },
    ]);
    expect(bed.logger.problems).to.deep.equal([]);
  });

  it('bookmarks a goal still waiting for its exclusion window when the recording ends, and starts afresh', async () => {
    const feed = bed.feeds.latest('screenText', 'events');
    await feed.deliver(read('GOAL', 2000));
    expect(bed.bookmarks.added).to.deep.equal([]);
    await integration.deactivate();
    expect(bed.bookmarks.added).to.deep.equal([{ type: 'Goal', at: new Date(STARTED.getTime() + 2000) }]);
    expect(feed.closed).to.equal(true);

    await integration.activate({ name: 'Rocket League' });
    await bed.feeds.latest('screenText', 'events').deliver(read('+100 GOAL', 3000)); // no cool-down left over
    expect(bed.bookmarks.added).to.have.length(2);
  });
});
