import { expect } from 'chai';
import { postAsGame } from '../../testing/game-push.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { HttpPushInput } from '../../sdk/feed-types.js';
import { freePort } from './free-port.js';
import type { ObservedInput } from '../../sdk/feed-observer.js';
import { LiveFeeds } from './live-feeds.js';
import { MemoryLogger } from './memory-logger.js';
import { waitFor } from './wait-for.js';

describe('LiveFeeds', () => {
  const arrivedAt = new Date('2024-05-01T12:00:00Z');
  let logger: MemoryLogger;
  let observed: ObservedInput[];
  let feeds: LiveFeeds;
  let folder: string;

  beforeEach(async () => {
    logger = new MemoryLogger();
    observed = [];
    feeds = new LiveFeeds({ logger, observe: (entry) => observed.push(entry), now: () => arrivedAt });
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-feeds-'));
  });
  afterEach(async () => {
    await feeds.closeAll();
    await rm(folder, { recursive: true, force: true });
  });

  const post = (port: number, body: string) => postAsGame(port, body);

  it('lets observe see every input, in order, just before the handler gets it', async () => {
    const port = await freePort();
    const feed = feeds.httpPush('gsi', { port });
    await feed.ready;
    for (const body of ['1', '2', '3']) await post(port, body);
    const handled: [string, number][] = [];
    feed.onInput((input) => {
      handled.push([input.body, observed.length]);
    });
    await waitFor(() => handled.length === 3, 'three inputs');
    expect(handled, 'each input observed just before it was handled').to.deep.equal([
      ['1', 1],
      ['2', 2],
      ['3', 3],
    ]);
    expect(observed.map(({ feed: id, kind, at, input }) => [id, kind, at, (input as HttpPushInput).body])).to.deep.equal([
      ['gsi', 'httpPush', arrivedAt, '1'],
      ['gsi', 'httpPush', arrivedAt, '2'],
      ['gsi', 'httpPush', arrivedAt, '3'],
    ]);
  });

  it('refuses a duplicate feed id, and frees it when the feed closes', async () => {
    const feed = feeds.watchFolder('files', { folder });
    expect(() => feeds.tail('files', { paths: [path.join(folder, 'x.log')] })).to.throw(/"files" is already open/);
    await feed.close();
    feeds.tail('files', { paths: [path.join(folder, 'x.log')] });
  });

  it('does not keep the id of a poll it refused', () => {
    expect(() => feeds.poll('api', { url: 'http://example.com/', intervalMs: 100 })).to.throw(/not a local/);
    feeds.poll('api', { url: 'http://127.0.0.1:9/', intervalMs: 100 });
  });

  it('logs a port in use even when nobody awaits ready', async () => {
    const holder = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      feeds.httpPush('gsi', { port });
      await waitFor(() => logger.messages('error').length === 1, 'the logged error');
      expect(logger.messages('error')[0]).to.include(`port ${port} is in use by another program`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('closes every feed it opened on closeAll', async () => {
    const port = await freePort();
    const log = path.join(folder, 'game.log');
    await writeFile(log, '');
    const push = feeds.httpPush('gsi', { port });
    const tail = feeds.tail('log', { paths: [log], discoveryIntervalMs: 50 });
    await Promise.all([push.ready, tail.ready]);
    await feeds.closeAll();
    await post(port, 'after close').then(
      () => expect.fail('the port should be closed'),
      (error: Error) => expect(error.message).to.include('ECONNREFUSED'),
    );
    feeds.httpPush('gsi', { port });
    feeds.tail('log', { paths: [log] });
  });
});
