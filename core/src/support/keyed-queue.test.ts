import { expect } from 'chai';
import { KeyedQueue } from './keyed-queue.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('KeyedQueue', () => {
  it('runs the tasks of one key one after another, in order, even when one fails', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([queue.run('a', task('1')), queue.run('a', task('2', true)), queue.run('a', task('3'))]);
    expect(log).to.deep.equal(['1 start', '1 end', '2 start', '2 end', '3 start', '3 end']);
    expect(results.map((result) => result.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('runs tasks of different keys side by side', async () => {
    const queue = new KeyedQueue();
    let release!: () => void;
    const blocked = queue.run(
      'a',
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    expect(await queue.run('b', async () => 'b ran')).to.equal('b ran');
    release();
    await blocked;
  });

  it('runAll waits for every key it holds and never deadlocks against another batch', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const batch = (name: string, keys: string[]) =>
      queue.runAll(keys, async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
      });
    await Promise.all([
      batch('x', ['a', 'b']),
      batch('y', ['b', 'a']),
      queue.run('a', async () => {
        log.push('single');
      }),
    ]);
    expect(log).to.deep.equal(['x start', 'x end', 'y start', 'y end', 'single']);
  });
});
