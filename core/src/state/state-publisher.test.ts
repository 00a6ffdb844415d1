import 'reflect-metadata';
import { expect } from 'chai';
import type { EventContent, EventName } from '../protocol/index.js';
import type { EventSink } from '../protocol/event-sink.js';
import { STATE_BURST_MS, StatePublisher } from './state-publisher.js';

class CountingSink implements EventSink {
  readonly isConnected = true;
  readonly times: number[] = [];
  send<E extends EventName>(_method: E, _content: EventContent<E>): void {
    this.times.push(Date.now());
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('StatePublisher', () => {
  it('sends a lone change at once and coalesces a burst into at most one State per 50 ms', async () => {
    const sink = new CountingSink();
    const store = new StatePublisher(sink);
    const start = Date.now();
    store.update({ currentFolderSizeGb: 1 });
    await wait(5);
    expect(sink.times).to.have.length(1);
    expect(sink.times[0]! - start).to.be.below(STATE_BURST_MS);

    for (let index = 0; index < 100; index++) store.update({ currentFolderSizeGb: index });
    await wait(STATE_BURST_MS * 2 + 20);
    expect(sink.times).to.have.length(2);
    expect(sink.times[1]! - sink.times[0]!).to.be.at.least(STATE_BURST_MS - 2);
    expect(store.current.currentFolderSizeGb).to.equal(99);
    store.dispose();
  });
});
