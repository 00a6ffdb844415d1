import { expect } from 'chai';
import { setTimeout as delay } from 'node:timers/promises';
import { InputQueue } from './input-queue.js';
import { MemoryLogger } from './memory-logger.js';
import { waitFor } from './wait-for.js';

describe('InputQueue', () => {
  let logger: MemoryLogger;
  beforeEach(() => {
    logger = new MemoryLogger();
  });

  it('delivers in order, one handler call at a time', async () => {
    const queue = new InputQueue<number>({ feed: 'numbers', logger });
    const delivered: number[] = [];
    let running = 0;
    let mostAtOnce = 0;
    queue.setHandler(async (input) => {
      mostAtOnce = Math.max(mostAtOnce, ++running);
      await delay(input % 2 === 0 ? 5 : 1);
      delivered.push(input);
      running--;
    });
    for (let input = 0; input < 10; input++) queue.push(input);
    await waitFor(() => delivered.length === 10, 'all ten inputs');
    expect(delivered).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(mostAtOnce).to.equal(1);
  });

  it('logs a handler that throws or rejects and keeps delivering', async () => {
    const queue = new InputQueue<string>({ feed: 'words', logger });
    const delivered: string[] = [];
    queue.setHandler(async (input) => {
      if (input === 'throw') throw new Error('bad input');
      if (input === 'reject') return Promise.reject(new Error('bad later'));
      delivered.push(input);
    });
    for (const input of ['a', 'throw', 'b', 'reject', 'c']) queue.push(input);
    await waitFor(() => delivered.length === 3, 'the good inputs');
    expect(delivered).to.deep.equal(['a', 'b', 'c']);
    expect(logger.messages('error')).to.have.length(2);
  });

  it('keeps inputs that arrive before the handler is set, and never calls it synchronously', async () => {
    const queue = new InputQueue<number>({ feed: 'early', logger });
    queue.push(1);
    queue.push(2);
    const delivered: number[] = [];
    queue.setHandler((input) => {
      delivered.push(input);
    });
    expect(delivered).to.deep.equal([]);
    await waitFor(() => delivered.length === 2, 'the early inputs');
    expect(delivered).to.deep.equal([1, 2]);
  });

  it('drops the oldest inputs beyond its capacity, with a warning', async () => {
    const queue = new InputQueue<number>({ feed: 'flood', logger, capacity: 3 });
    for (let input = 1; input <= 6; input++) queue.push(input);
    const delivered: number[] = [];
    queue.setHandler((input) => {
      delivered.push(input);
    });
    await waitFor(() => delivered.length === 3, 'the newest inputs');
    expect(delivered).to.deep.equal([4, 5, 6]);
    expect(logger.messages('warn')).to.have.length(2);
    expect(logger.messages('warn')[1]).to.include('3 inputs were dropped');
  });

  it('shows each input to beforeDelivery, with its arrival time, just before the handler', async () => {
    const arrivedAt = new Date('2024-01-01T00:00:00Z');
    const events: string[] = [];
    const queue = new InputQueue<string>({
      feed: 'observed',
      logger,
      now: () => arrivedAt,
      beforeDelivery: (input, at) => events.push(`observe ${input} ${at.toISOString()}`),
    });
    queue.push('first');
    queue.setHandler((input) => {
      events.push(`handle ${input}`);
    });
    await waitFor(() => events.length === 2, 'the first delivery');
    expect(events).to.deep.equal(['observe first 2024-01-01T00:00:00.000Z', 'handle first']);
  });

  it('delivers nothing after close', async () => {
    const queue = new InputQueue<number>({ feed: 'closed', logger });
    const delivered: number[] = [];
    queue.push(1);
    queue.close();
    queue.push(2);
    queue.setHandler((input) => {
      delivered.push(input);
    });
    await delay(20);
    expect(delivered).to.deep.equal([]);
  });
});
