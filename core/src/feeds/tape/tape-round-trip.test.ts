// Live feeds recorded to a tape and replayed: the integration must get the same inputs, in the same
// order, at the same (virtual) times.
import 'reflect-metadata';
import { expect } from 'chai';
import { postAsGame } from '../../testing/game-push.js';
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createSocket } from 'node:dgram';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { inject, injectable } from 'tsyringe';
import { WebSocketServer } from 'ws';
import type { Bookmarks as BookmarksService, Clock as ClockService, GameIntegration } from '../../sdk/game-integration.js';
import { Bookmarks, Clock, Feeds } from '../../sdk/tokens.js';
import { freePort } from '../live/free-port.js';
import { LiveFeeds } from '../live/live-feeds.js';
import { MemoryLogger } from '../live/memory-logger.js';
import { waitFor } from '../live/wait-for.js';
import type { Feed, FeedInputs, FeedKind, Feeds as FeedsService, FolderInput } from '../../sdk/feed-types.js';
import { isFeedEntry, readTape, type FeedEntry, type Tape } from './tape-format.js';
import { playTape } from '../../integrations/tape-player.js';
import { TapeWriter } from './tape-writer.js';

const KEY = 'roundTrip';
const GAME = { name: 'Round Trip Game' };

/** A feed the test integration opens, with the options it would use on the live game. */
interface OpenedFeed<K extends FeedKind = FeedKind> {
  id: string;
  kind: K;
  options: Parameters<FeedsService[K]>[1];
}

interface Received {
  feed: string;
  input: unknown;
  /** `Clock.now()` while the handler ran, in ms. */
  at: number;
  /** Whether the integration was between activate() and deactivate() when it got the input. */
  active: boolean;
}

/**
 * A tiny integration written the way a plugin is: it gets `Feeds` (and `Bookmarks`, `Clock`) from
 * its container, opens `feeds` on activate, keeps every input and, if asked, bookmarks each one.
 */
function integrationOpening(feeds: OpenedFeed[], { bookmarkEach = false } = {}) {
  const received: Received[] = [];
  const hooks: string[] = [];

  @injectable()
  class TestIntegration implements GameIntegration {
    private active = false;

    constructor(
      @inject(Feeds) private readonly feeds: FeedsService,
      @inject(Bookmarks) private readonly bookmarks: BookmarksService,
      @inject(Clock) private readonly clock: ClockService,
    ) {}

    async activate(): Promise<void> {
      hooks.push('activate');
      this.active = true;
      for (const { id, kind, options } of feeds) {
        const feed = (this.feeds[kind] as (id: string, options: unknown) => Feed<unknown>).call(this.feeds, id, options);
        feed.onInput(async (input) => {
          received.push({ feed: id, input, at: this.clock.now().getTime(), active: this.active });
          if (bookmarkEach) await this.bookmarks.add({ type: 'Kill' });
        });
        await feed.ready;
      }
    }

    async deactivate(): Promise<void> {
      hooks.push('deactivate');
      this.active = false;
    }
  }
  return { integrationClass: TestIntegration, received, hooks };
}

describe('tapes: live feeds recorded and replayed', function () {
  this.timeout(15_000);
  let folder: string;
  let tapeFile: string;
  let logger: MemoryLogger;
  let writer: TapeWriter;
  let feeds: LiveFeeds;
  /** What the live handlers got, in the order they got it. */
  let live: { feed: string; input: unknown }[];
  let servers: Server[];
  /** How to stop the stand-in games of other kinds (a TCP console, an event socket, a telemetry sender). */
  let stops: (() => Promise<unknown>)[];

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-tape-round-trip-'));
    tapeFile = path.join(folder, 'tapes', 'session.tape.jsonl');
    logger = new MemoryLogger();
    writer = new TapeWriter(tapeFile, { integration: KEY, description: 'round trip test' });
    feeds = new LiveFeeds({ logger, observe: (entry) => writer.write(entry) });
    live = [];
    servers = [];
    stops = [];
  });
  afterEach(async () => {
    await feeds.closeAll();
    await Promise.all(stops.map((stop) => stop()));
    await Promise.all(
      servers.map(
        (server) =>
          new Promise((resolve) => {
            server.closeAllConnections();
            server.close(resolve);
          }),
      ),
    );
    await rm(folder, { recursive: true, force: true });
  });

  /** Opens a live feed through LiveFeeds (so the tape writer sees its inputs) and keeps what its handler gets. */
  async function openLive<K extends FeedKind>(opened: OpenedFeed<K>): Promise<Feed<FeedInputs[K]>> {
    const feed = (feeds[opened.kind] as (id: string, options: unknown) => Feed<FeedInputs[K]>).call(feeds, opened.id, opened.options);
    feed.onInput((input) => {
      live.push({ feed: opened.id, input });
    });
    await feed.ready;
    return feed;
  }

  const feedEntries = (tape: Tape) => tape.entries.filter(isFeedEntry);

  /** t never goes back, every line belongs to the feed, and the tape holds exactly what the handlers got. */
  function expectTapeOfLive(tape: Tape, kind: FeedKind, strictlyIncreasing: boolean): FeedEntry[] {
    expect(tape.header).to.include({ tape: 1, integration: KEY, description: 'round trip test' });
    const entries = feedEntries(tape);
    expect(entries, 'no recording events were written').to.have.length(tape.entries.length);
    expect(entries.map((entry) => [entry.feed, entry.kind])).to.deep.equal(live.map(({ feed }) => [feed, kind]));
    const times = entries.map((entry) => entry.t);
    times.forEach((t, index) => {
      expect(t, `t of entry ${index + 1}`)
        .to.be.a('number')
        .and.at.least(0)
        .and.below(10_000);
      if (index > 0 && strictlyIncreasing) expect(t, `t of entry ${index + 1} (${times.join(', ')})`).to.be.above(times[index - 1]!);
      if (index > 0) expect(t, `t of entry ${index + 1} (${times.join(', ')})`).to.be.at.least(times[index - 1]!);
    });
    return entries;
  }

  /** Replays the tape into an integration opening `opened`; it must get exactly what the live handlers got. */
  async function replayInto(opened: OpenedFeed[], expected: { feed: string; input: unknown }[] = live) {
    const integration = integrationOpening(opened, { bookmarkEach: true });
    const playback = await playTape(tapeFile, { integrationClass: integration.integrationClass, key: KEY, defaultGame: GAME });
    expect(integration.received.map(({ feed, input }) => ({ feed, input }))).to.deep.equal(expected);
    expect(integration.hooks).to.deep.equal(['activate', 'deactivate']);
    expect(playback.unconsumed).to.equal(0);
    // No `recording` entries: one recording from t = 0, so each bookmark is at its entry's t.
    const entries = feedEntries(playback.tape);
    expect(playback.bookmarks).to.deep.equal(entries.map((entry) => ({ type: 'Kill', time: entry.t / 1000, recording: 0 })));
    const startMs = new Date(playback.tape.header.recordedAt).getTime();
    expect(
      integration.received.map(({ at }) => at - startMs),
      'Clock.now() while each input is handled',
    ).to.deep.equal(entries.map((entry) => entry.t));
    expect(playback.dropped).to.deep.equal([]);
    return { playback, integration };
  }

  it('httpPush: real loopback POSTs', async () => {
    const port = await freePort();
    const opened: OpenedFeed<'httpPush'> = { id: 'gsi', kind: 'httpPush', options: { port } };
    await openLive(opened);
    const pushes = [
      { path: '/', body: '{"round":1}', userAgent: 'Valve/Steam HTTP Client 1.0 (730)' },
      { path: '/state?full=1', body: 'not json {', userAgent: 'curl/8.4.0' },
      { path: '/', body: '{"kills":2,"name":"Zoë 🎯"}', userAgent: 'Valve/Steam HTTP Client 1.0 (730)' },
    ];
    for (const [index, { path: urlPath, body, userAgent }] of pushes.entries()) {
      expect(await postAsGame(port, body, { path: urlPath, userAgent })).to.equal(200);
      await waitFor(() => live.length === index + 1, `push ${index + 1}`);
      await delay(25);
    }
    await feeds.closeAll();

    expect(live.map(({ input }) => input)).to.deep.equal(pushes.map((push) => ({ method: 'POST', ...push })));
    const entries = expectTapeOfLive(await readTape(tapeFile), 'httpPush', true);
    expect(entries.map((entry) => entry.input)).to.deep.equal(live.map(({ input }) => input));
    await replayInto([opened]);
  });

  it('poll: a real local HTTP server', async () => {
    let requests = 0;
    const server = createServer((request, response) => {
      requests += 1;
      if (requests === 2) response.writeHead(503).end('warming up');
      else response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ poll: requests, path: request.url }));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/liveclientdata/allgamedata`;
    const opened: OpenedFeed<'poll'> = { id: 'api', kind: 'poll', options: { url, intervalMs: 60 } };
    await openLive(opened);
    await waitFor(() => live.length >= 3, 'three polls');
    await feeds.closeAll();

    expect(live.slice(0, 3).map(({ input }) => input)).to.deep.equal([
      { status: 200, body: '{"poll":1,"path":"/liveclientdata/allgamedata"}' },
      { status: 503, body: 'warming up' },
      { status: 200, body: '{"poll":3,"path":"/liveclientdata/allgamedata"}' },
    ]);
    const entries = expectTapeOfLive(await readTape(tapeFile), 'poll', true);
    expect(entries.map((entry) => entry.input)).to.deep.equal(live.map(({ input }) => input));
    await replayInto([opened]);
  });

  it('poll: an endpoint that is not there is recorded as an error input', async () => {
    const opened: OpenedFeed<'poll'> = {
      id: 'api',
      kind: 'poll',
      options: { url: `http://127.0.0.1:${await freePort()}/`, intervalMs: 60 },
    };
    await openLive(opened);
    await waitFor(() => live.length >= 2, 'two failed polls');
    await feeds.closeAll();

    const entries = expectTapeOfLive(await readTape(tapeFile), 'poll', false);
    expect(entries.map((entry) => entry.input)).to.deep.equal(live.map(({ input }) => input));
    for (const entry of entries)
      expect(entry.input)
        .to.have.all.keys('error')
        .and.have.property('error')
        .that.match(/ECONNREFUSED/);
    await replayInto([opened]);
  });

  it('tail: a real file with appended lines', async () => {
    const log = path.join(folder, 'game', 'console.log');
    await mkdir(path.dirname(log), { recursive: true });
    await writeFile(log, 'written before the feed opened\n');
    const opened: OpenedFeed<'tail'> = { id: 'log', kind: 'tail', options: { paths: [log], discoveryIntervalMs: 50 } };
    await openLive(opened);
    await waitFor(() => live.length === 1, 'the opened file');
    await delay(25);
    await appendFile(log, 'Kill 1\n');
    await waitFor(() => live.length === 2, 'the first line');
    await delay(25);
    await appendFile(log, 'Kill 2\r\nKill');
    await waitFor(() => live.length === 3, 'the second line');
    await delay(25);
    await appendFile(log, ' 3 (ünïcode)\n');
    await waitFor(() => live.length === 4, 'the third line');
    await feeds.closeAll();

    expect(live.map(({ input }) => input)).to.deep.equal([
      { reset: 'opened', file: log },
      { line: 'Kill 1', file: log },
      { line: 'Kill 2', file: log },
      { line: 'Kill 3 (ünïcode)', file: log },
    ]);
    const entries = expectTapeOfLive(await readTape(tapeFile), 'tail', true);
    expect(entries.map((entry) => entry.input)).to.deep.equal(live.map(({ input }) => input));
    await replayInto([opened]);
  });

  it('watchFolder: a real folder where files appear; the files travel with the tape', async () => {
    const watched = path.join(folder, 'game', 'replays');
    await mkdir(path.join(watched, 'season 2'), { recursive: true });
    await writeFile(path.join(watched, 'old.rep'), 'there before the feed opened');
    const opened: OpenedFeed<'watchFolder'> = {
      id: 'replays',
      kind: 'watchFolder',
      options: { folder: watched, intervalMs: 50, stableMs: 100 },
    };
    await openLive(opened);
    const files = [
      { path: 'match-1.rep', bytes: randomBytes(4096) },
      { path: 'season 2/match 2.rep', bytes: randomBytes(70_000) },
    ];
    for (const [index, file] of files.entries()) {
      await writeFile(path.join(watched, ...file.path.split('/')), file.bytes);
      await waitFor(() => live.length === index + 1, file.path);
    }
    await feeds.closeAll();

    expect(live.map(({ input }) => input)).to.deep.equal(
      files.map((file) => ({
        path: file.path,
        absolutePath: path.join(watched, ...file.path.split('/')),
        size: file.bytes.length,
      })),
    );
    const tape = await readTape(tapeFile);
    const entries = expectTapeOfLive(tape, 'watchFolder', true);
    const filesFolder = path.join(folder, 'tapes', 'session.files', 'replays');
    for (const [index, file] of files.entries()) {
      const input = entries[index]!.input as FolderInput;
      expect(input.path).to.equal(file.path);
      expect(input.size).to.equal(file.bytes.length);
      expect(input.absolutePath).to.equal(path.join(filesFolder, ...file.path.split('/')));
      expect((await readFile(input.absolutePath)).equals(file.bytes), `bytes of the copy of ${file.path}`).to.equal(true);
    }
    // The tape line keeps the relative path only: the live folder is on another machine when the tape is played.
    expect(await readFile(tapeFile, 'utf8')).to.not.include(watched);

    // Replayed, the integration reads each file from beside the tape.
    const { integration } = await replayInto(
      [opened],
      entries.map((entry) => ({ feed: 'replays', input: entry.input })),
    );
    for (const [index, file] of files.entries()) {
      expect((await readFile((integration.received[index]!.input as FolderInput).absolutePath)).equals(file.bytes)).to.equal(true);
    }
  });

  it('tcp: a real console port that sends lines, then closes', async () => {
    const gameConsole = createTcpServer((socket) => {
      void (async () => {
        for (const line of ['Player killed Bot', 'Zoë 🎯 headshot', 'round over']) {
          socket.write(`${line}\n`);
          await delay(25);
        }
        socket.end();
      })();
    });
    stops.push(() => new Promise((resolve) => gameConsole.close(resolve)));
    await new Promise<void>((resolve) => gameConsole.listen(0, '127.0.0.1', resolve));
    const port = (gameConsole.address() as AddressInfo).port;
    const opened: OpenedFeed<'tcp'> = { id: 'console', kind: 'tcp', options: { port, reconnect: { initialDelayMs: 5000 } } };
    await openLive(opened);
    await waitFor(() => live.length === 5, 'three lines and the close');
    await feeds.closeAll();

    expect(live.map(({ input }) => input)).to.deep.equal([
      { connection: 'opened' },
      { line: 'Player killed Bot' },
      { line: 'Zoë 🎯 headshot' },
      { line: 'round over' },
      { connection: 'closed' },
    ]);
    const entries = expectTapeOfLive(await readTape(tapeFile), 'tcp', false);
    expect(entries.map((entry) => entry.input)).to.deep.equal(live.map(({ input }) => input));
    await replayInto([opened]);
  });

  it('webSocket: a real local event socket that sends messages, then closes', async () => {
    const events = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    stops.push(() => new Promise((resolve) => events.close(resolve)));
    events.on('connection', (socket) => {
      void (async () => {
        for (const message of ['{"event":"kill"}', '{"event":"death","by":"Zoë"}']) {
          socket.send(message);
          await delay(25);
        }
        socket.close(4000, 'game over');
      })();
    });
    await new Promise((resolve) => events.on('listening', resolve));
    const url = `ws://127.0.0.1:${(events.address() as AddressInfo).port}/`;
    const opened: OpenedFeed<'webSocket'> = { id: 'events', kind: 'webSocket', options: { url, reconnect: { initialDelayMs: 5000 } } };
    await openLive(opened);
    await waitFor(() => live.length === 4, 'two messages and the close');
    await feeds.closeAll();

    expect(live.map(({ input }) => input)).to.deep.equal([
      { connection: 'opened' },
      { message: '{"event":"kill"}' },
      { message: '{"event":"death","by":"Zoë"}' },
      { connection: 'closed', error: 'closed with code 4000: game over' },
    ]);
    const entries = expectTapeOfLive(await readTape(tapeFile), 'webSocket', false);
    expect(entries.map((entry) => entry.input)).to.deep.equal(live.map(({ input }) => input));
    await replayInto([opened]);
  });

  it('udp: real datagrams from a telemetry sender', async () => {
    const port = await freePort();
    const opened: OpenedFeed<'udp'> = { id: 'telemetry', kind: 'udp', options: { port, encoding: 'base64' } };
    await openLive(opened);
    const sender = createSocket('udp4');
    stops.push(() => new Promise<void>((resolve) => sender.close(resolve)));
    for (const packet of [Buffer.from([1, 2, 3]), Buffer.from('lap 2'), Buffer.from([255, 0])]) {
      await new Promise((resolve) => sender.send(packet, port, '127.0.0.1', resolve));
      await delay(25);
    }
    await waitFor(() => live.length === 3, 'three datagrams');
    await feeds.closeAll();

    const from = `127.0.0.1:${sender.address().port}`;
    expect(live.map(({ input }) => input)).to.deep.equal([
      { message: 'AQID', from },
      { message: 'bGFwIDI=', from },
      { message: '/wA=', from },
    ]);
    const entries = expectTapeOfLive(await readTape(tapeFile), 'udp', true);
    expect(entries.map((entry) => entry.input)).to.deep.equal(live.map(({ input }) => input));
    await replayInto([opened]);
  });

  it("keeps t from going back when a busy feed hands over an input after another feed's later one", async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    const slowHandled: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = feeds.httpPush('slow', { port: portA });
    slow.onInput(async (input) => {
      live.push({ feed: 'slow', input });
      if (input.body === 'slow 1') await gate;
      slowHandled.push(input.body);
    });
    await slow.ready;
    await openLive({ id: 'fast', kind: 'httpPush', options: { port: portB } });
    const post = (port: number, body: string) => postAsGame(port, body, { userAgent: 'test' });

    await post(portA, 'slow 1'); // handler busy until released
    await waitFor(() => live.length === 1, 'slow 1');
    await delay(30);
    await post(portA, 'slow 2'); // arrives now, handed over only after `fast 1`
    await delay(30);
    await post(portB, 'fast 1');
    await waitFor(() => live.length === 2, 'fast 1');
    release();
    await waitFor(() => slowHandled.length === 2, 'slow 2');
    await feeds.closeAll();

    expect(live.map(({ feed, input }) => [feed, (input as { body: string }).body])).to.deep.equal([
      ['slow', 'slow 1'],
      ['fast', 'fast 1'],
      ['slow', 'slow 2'],
    ]);
    const tape = await readTape(tapeFile); // refused with "t goes back in time" when t is the arrival time
    const entries = feedEntries(tape);
    expect(entries.map((entry) => (entry.input as { body: string }).body)).to.deep.equal(['slow 1', 'fast 1', 'slow 2']);
    expect(entries[2]!.t).to.equal(entries[1]!.t);
    await replayInto([
      { id: 'slow', kind: 'httpPush', options: { port: portA } },
      { id: 'fast', kind: 'httpPush', options: { port: portB } },
    ]);
  });

  it('all four kinds in one tape replay in the order they were handed over', async () => {
    const port = await freePort();
    const log = path.join(folder, 'game.log');
    await writeFile(log, '');
    const watched = path.join(folder, 'replays');
    await mkdir(watched);
    const server = createServer((_request, response) => response.writeHead(200).end('{"ok":true}'));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const opened: OpenedFeed[] = [
      { id: 'push', kind: 'httpPush', options: { port } },
      { id: 'api', kind: 'poll', options: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, intervalMs: 150 } },
      { id: 'log', kind: 'tail', options: { paths: [log], discoveryIntervalMs: 50 } },
      { id: 'replays', kind: 'watchFolder', options: { folder: watched, intervalMs: 50, stableMs: 60 } },
    ];
    for (const feed of opened) await openLive(feed);
    const count = (feed: string) => live.filter((entry) => entry.feed === feed).length;
    await postAsGame(port, 'push 1');
    await appendFile(log, 'line 1\n');
    await writeFile(path.join(watched, 'a.rep'), 'replay a');
    await postAsGame(port, 'push 2');
    await appendFile(log, 'line 2\n');
    await waitFor(() => count('push') === 2 && count('log') === 3 && count('replays') === 1 && count('api') >= 3, 'inputs of every feed');
    await feeds.closeAll();

    const tape = await readTape(tapeFile);
    const entries = feedEntries(tape);
    expect(entries.map(({ feed, kind }) => ({ feed, kind }))).to.deep.equal(
      live.map(({ feed }) => ({ feed, kind: opened.find((f) => f.id === feed)!.kind })),
    );
    expect(entries.map((entry, index) => index === 0 || entry.t >= entries[index - 1]!.t)).to.not.include(false);
    const expected = entries.map(({ feed, input }) => ({ feed, input }));
    expect(
      expected.map(({ feed, input }) =>
        feed === 'replays' ? { ...(input as FolderInput), absolutePath: path.join(watched, 'a.rep') } : input,
      ),
    ).to.deep.equal(live.map(({ input }) => input));
    await replayInto(opened, expected);
  });

  describe('the virtual clock', () => {
    const startedAt = new Date('2025-03-01T18:00:00.000Z');
    const at = (ms: number) => new Date(startedAt.getTime() + ms);
    const push = (body: string) => ({ method: 'POST', path: '/', body });
    const opened: OpenedFeed[] = [{ id: 'gsi', kind: 'httpPush', options: { port: 1 } }];

    it('without recording entries, records from t = 0: bookmark times are t / 1000', async () => {
      const file = path.join(folder, 'clock.tape.jsonl');
      const clockWriter = new TapeWriter(file, { integration: KEY }, startedAt);
      for (const [ms, body] of [
        [0, 'a'],
        [1250, 'b'],
        [1250, 'c'],
        [61_999, 'd'],
      ] as const) {
        clockWriter.write({ feed: 'gsi', kind: 'httpPush', input: push(body), at: at(ms) });
      }
      const integration = integrationOpening(opened, { bookmarkEach: true });
      const playback = await playTape(file, { integrationClass: integration.integrationClass, key: KEY, defaultGame: GAME });
      expect(playback.bookmarks).to.deep.equal([
        { type: 'Kill', time: 0, recording: 0 },
        { type: 'Kill', time: 1.25, recording: 0 },
        { type: 'Kill', time: 1.25, recording: 0 },
        { type: 'Kill', time: 61.999, recording: 0 },
      ]);
      expect(integration.received.map(({ at: ms }) => ms - startedAt.getTime())).to.deep.equal([0, 1250, 1250, 61_999]);
      expect(integration.received.every(({ active }) => active)).to.equal(true);
    });

    it('with recording entries, delivers only inside the recording, at times relative to its start', async () => {
      const file = path.join(folder, 'recording.tape.jsonl');
      const text = [
        JSON.stringify({ tape: 1, integration: KEY, recordedAt: startedAt.toISOString() }),
        JSON.stringify({ t: 1000, feed: 'gsi', kind: 'httpPush', ...push('before') }),
        JSON.stringify({ t: 5000, feed: 'gsi', kind: 'httpPush', ...push('at 5 s, before the start line') }),
        JSON.stringify({ t: 5000, recording: 'started' }),
        JSON.stringify({ t: 5000, feed: 'gsi', kind: 'httpPush', ...push('at the start') }),
        JSON.stringify({ t: 6500, feed: 'gsi', kind: 'httpPush', ...push('inside 1') }),
        JSON.stringify({ t: 8999, feed: 'gsi', kind: 'httpPush', ...push('inside 2') }),
        JSON.stringify({ t: 9000, recording: 'stopped' }),
        JSON.stringify({ t: 9000, feed: 'gsi', kind: 'httpPush', ...push('at the stop, after the stop line') }),
        JSON.stringify({ t: 12_000, feed: 'gsi', kind: 'httpPush', ...push('after') }),
      ].join('\n');
      await writeFile(file, `${text}\n`);
      const integration = integrationOpening(opened, { bookmarkEach: true });
      const playback = await playTape(file, { integrationClass: integration.integrationClass, key: KEY, defaultGame: GAME });

      expect(integration.hooks).to.deep.equal(['activate', 'deactivate']);
      expect(integration.received.map(({ input }) => (input as { body: string }).body)).to.deep.equal([
        'at the start',
        'inside 1',
        'inside 2',
      ]);
      expect(
        integration.received.every(({ active }) => active),
        'every input arrived while active',
      ).to.equal(true);
      expect(integration.received.map(({ at: ms }) => ms - startedAt.getTime())).to.deep.equal([5000, 6500, 8999]);
      expect(playback.bookmarks).to.deep.equal([
        { type: 'Kill', time: 0, recording: 0 },
        { type: 'Kill', time: 1.5, recording: 0 },
        { type: 'Kill', time: 3.999, recording: 0 },
      ]);
      expect(playback.unconsumed).to.equal(4);
      expect(playback.dropped).to.deep.equal([]);
    });

    it('numbers the recordings of a tape that starts and stops several times', async () => {
      const file = path.join(folder, 'two.tape.jsonl');
      const twoWriter = new TapeWriter(file, { integration: KEY }, startedAt);
      twoWriter.recording('started', at(1000));
      twoWriter.write({ feed: 'gsi', kind: 'httpPush', input: push('first'), at: at(3000) });
      twoWriter.recording('stopped', at(4000));
      twoWriter.write({ feed: 'gsi', kind: 'httpPush', input: push('between'), at: at(5000) });
      twoWriter.recording('started', at(10_000));
      twoWriter.write({ feed: 'gsi', kind: 'httpPush', input: push('second'), at: at(10_500) });
      const integration = integrationOpening(opened, { bookmarkEach: true });
      const playback = await playTape(file, { integrationClass: integration.integrationClass, key: KEY, defaultGame: GAME });
      expect(integration.hooks).to.deep.equal(['activate', 'deactivate', 'activate', 'deactivate']);
      expect(integration.received.map(({ input }) => (input as { body: string }).body)).to.deep.equal(['first', 'second']);
      expect(playback.bookmarks).to.deep.equal([
        { type: 'Kill', time: 2, recording: 0 },
        { type: 'Kill', time: 0.5, recording: 1 },
      ]);
      expect(playback.unconsumed).to.equal(1);
    });
  });
});
