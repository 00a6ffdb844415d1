import 'reflect-metadata';
import {
  Bookmarks, Clock, Feeds, GamePaths, Health, Logger,
  type BookmarkRequest, type BookmarksService, type ClockService, type Feed, type FeedsService, type GamePathsService,
  type HealthReporter, type PluginLogger, type PollInput, type PollOptions,
} from '@keyframe/core';
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { container } from 'tsyringe';
import { loggedInSession, writeClog } from './clog-fixtures.js';
import { NO_DATA_MESSAGE, NO_NICKNAME_MESSAGE, VehicleCombatIntegration } from './vehicle-combat-integration.js';

class FakeFeed implements Feed<PollInput> {
  handler: ((input: PollInput) => void | Promise<void>) | undefined;
  closed = false;
  /** Resolves close(); replace it to hold a close in progress. */
  closing: Promise<void> = Promise.resolve();
  readonly ready = Promise.resolve();
  onInput(handler: (input: PollInput) => void | Promise<void>): void { this.handler = handler; }
  async close(): Promise<void> {
    this.closed = true;
    await this.closing;
  }
}

class FakeFeeds implements FeedsService {
  readonly opened: Array<{ id: string; options: PollOptions; feed: FakeFeed }> = [];
  poll(id: string, options: PollOptions): Feed<PollInput> {
    const feed = new FakeFeed();
    this.opened.push({ id, options, feed });
    return feed;
  }
  httpPush(): never { throw new Error('not used'); }
  tail(): never { throw new Error('not used'); }
  watchFolder(): never { throw new Error('not used'); }
  get current(): FakeFeed { return this.opened.at(-1)!.feed; }
  get urls(): string[] { return this.opened.map(({ options }) => options.url); }
}

class FakeClock implements ClockService {
  ms = Date.UTC(2026, 0, 1, 12);
  now(): Date { return new Date(this.ms); }
}

class FakeBookmarks implements BookmarksService {
  readonly added: BookmarkRequest[] = [];
  async add(request: BookmarkRequest): Promise<boolean> {
    this.added.push(request);
    return true;
  }
}

class FakeHealth implements HealthReporter {
  readonly degradations: Array<string | undefined> = [];
  degraded(reason: string | undefined): void { this.degradations.push(reason); }
  notify(): void {}
  get current(): string | undefined { return this.degradations.at(-1); }
}

const silentLogger: PluginLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** The same integration with a silence limit short enough for a test. */
class QuickVehicleCombatIntegration extends VehicleCombatIntegration {
  protected override readonly noDataTimeoutMs = 30;
}

const answer = (...damage: Array<[number, string, number]>) =>
  ({ status: 200, body: JSON.stringify({ events: [], damage: damage.map(([id, msg, time]) => ({ id, msg, sender: '', enemy: false, mode: '', time })) }) });
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('VehicleCombatIntegration', () => {
  let temp: string;
  let feeds: FakeFeeds;
  let clock: FakeClock;
  let bookmarks: FakeBookmarks;
  let health: FakeHealth;
  let integration: VehicleCombatIntegration;
  const logs = () => path.join(temp, 'local', 'WarThunder', '.game_logs');

  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'vehicle-combat-'));
    feeds = new FakeFeeds();
    clock = new FakeClock();
    bookmarks = new FakeBookmarks();
    health = new FakeHealth();
    const paths: GamePathsService = {
      steamLibraries: async () => [], roamingAppData: () => path.join(temp, 'roaming'), localAppData: () => path.join(temp, 'local'), home: () => temp,
    };
    integration = new QuickVehicleCombatIntegration(feeds, bookmarks, paths, clock, silentLogger, health);
  });
  afterEach(async () => {
    await integration.deactivate();
    await rm(temp, { recursive: true, force: true });
  });

  /** Delivers a poll the way the host does, at `seconds` after the start. */
  async function poll(seconds: number, input: PollInput): Promise<void> {
    clock.ms = Date.UTC(2026, 0, 1, 12) + seconds * 1000;
    await feeds.current.handler!(input);
  }

  it('resolves its services from the container the host gives it', () => {
    const child = container.createChildContainer();
    child.register(Feeds, { useValue: feeds });
    child.register(Bookmarks, { useValue: bookmarks });
    child.register(GamePaths, { useValue: { steamLibraries: async () => [], roamingAppData: () => temp, localAppData: () => temp, home: () => temp } });
    child.register(Clock, { useValue: clock });
    child.register(Logger, { useValue: silentLogger });
    child.register(Health, { useValue: health });
    expect(child.resolve(VehicleCombatIntegration)).to.be.instanceOf(VehicleCombatIntegration);
  });

  it('asks for everything first, then only for ids after the newest seen, on a new feed each time', async () => {
    await writeClog(logs(), 'session.clog', loggedInSession('Me'));
    await integration.activate({ name: 'War Thunder' });
    expect(feeds.urls).to.deep.equal(['http://127.0.0.1:8111/hudmsg?lastEvt=0&lastDmg=0']);
    expect(feeds.opened[0]!.options.intervalMs).to.equal(500);

    await poll(1, answer([5, '-X- Me (Tiger) destroyed Other (T-34)', 40]));
    await poll(1.5, { status: 200, body: '{"events":[],"damage":[]}' });
    await poll(2, answer([6, '-X- Me (Tiger) destroyed Third (T-34)', 41]));
    expect(feeds.urls).to.deep.equal([
      'http://127.0.0.1:8111/hudmsg?lastEvt=0&lastDmg=0',
      'http://127.0.0.1:8111/hudmsg?lastEvt=0&lastDmg=5',
      'http://127.0.0.1:8111/hudmsg?lastEvt=0&lastDmg=6',
    ]);
    expect(feeds.opened.slice(0, 2).every(({ feed }) => feed.closed)).to.equal(true);
    expect(new Set(feeds.opened.map(({ id }) => id))).to.deep.equal(new Set(['hudmsg']));
    // The kill before the first answer was there already; the one after it is bookmarked, a quarter second before it arrived.
    expect(bookmarks.added.map(({ type, at }) => [type, at!.toISOString()])).to.deep.equal([['Kill', '2026-01-01T12:00:01.750Z']]);
  });

  it('ignores what a replaced feed still delivers', async () => {
    await writeClog(logs(), 'session.clog', loggedInSession('Me'));
    await integration.activate({ name: 'War Thunder' });
    const first = feeds.current;
    await poll(1, answer([5, 'nothing', 40]));
    await first.handler!(answer([6, 'Me (Tiger) destroyed Other (T-34)', 41]));
    expect(bookmarks.added).to.deep.equal([]);
  });

  it('opens no feed after a deactivate that came while it was replacing one (it would outlive the activation)', async () => {
    await writeClog(logs(), 'session.clog', loggedInSession('Me'));
    await integration.activate({ name: 'War Thunder' });
    let finishClose = () => {};
    feeds.current.closing = new Promise((resolve) => { finishClose = resolve; });
    const handling = poll(1, answer([5, 'Other (T-34) destroyed Third (KV-1)', 40]));
    await delay(5);
    await integration.deactivate();
    finishClose();
    await handling;
    expect(feeds.opened).to.have.length(1);
  });

  it('without a nickname is degraded at once and bookmarks nothing, until the log names the player', async () => {
    await integration.activate({ name: 'War Thunder' });
    expect(health.current).to.equal(NO_NICKNAME_MESSAGE);
    await poll(1, answer([1, 'start', 10]));
    await poll(2, answer([2, 'Me (Tiger) destroyed Other (T-34)', 11]));
    expect(bookmarks.added).to.deep.equal([]);

    await writeClog(logs(), 'session.clog', loggedInSession('Me'));
    await poll(3, answer([3, 'Me (Tiger) destroyed Third (T-34)', 12]));
    expect(bookmarks.added).to.deep.equal([]); // looked again only 5 s after the last look
    await poll(6, answer([4, 'Me (Tiger) destroyed Fourth (T-34)', 15]));
    expect(health.current).to.equal(undefined);
    expect(bookmarks.added.map(({ type }) => type)).to.deep.equal(['Kill']);
  });

  it('says when the game does not answer at all, and stops saying it when it does', async () => {
    await writeClog(logs(), 'session.clog', loggedInSession('Me'));
    await integration.activate({ name: 'War Thunder' });
    await poll(0.5, { error: 'connect ECONNREFUSED 127.0.0.1:8111' });
    await poll(1, { status: 503, body: 'loading' });
    expect(health.degradations).to.deep.equal([]);
    await delay(60);
    expect(health.current).to.equal(NO_DATA_MESSAGE);
    await poll(40, answer([1, 'start', 10]));
    expect(health.current).to.equal(undefined);
  });

  it('clears its health and forgets the battle on deactivate', async () => {
    await integration.activate({ name: 'War Thunder' });
    expect(health.current).to.equal(NO_NICKNAME_MESSAGE);
    await integration.deactivate();
    expect(health.current).to.equal(undefined);

    await writeClog(logs(), 'session.clog', loggedInSession('Me'));
    await integration.activate({ name: 'War Thunder' });
    expect(feeds.current).to.not.equal(undefined);
    expect(feeds.urls.at(-1)).to.equal('http://127.0.0.1:8111/hudmsg?lastEvt=0&lastDmg=0');
    await poll(1, answer([9, 'Me (Tiger) destroyed Other (T-34)', 40]));
    expect(bookmarks.added).to.deep.equal([]);
  });

  it('finds the log beside the running game\'s executable', async () => {
    const game = path.join(temp, 'games', 'War Thunder');
    await writeClog(path.join(game, '.game_logs'), 'session.clog', loggedInSession('Beside'));
    await integration.activate({ name: 'War Thunder', executablePath: path.join(game, 'linux64', 'aces') });
    expect(health.degradations).to.deep.equal([]);
    await poll(1, answer([1, 'start', 10]));
    await poll(2, answer([2, 'Other (T-34) destroyed =TAG= Beside (Tiger)', 11]));
    expect(bookmarks.added.map(({ type }) => type)).to.deep.equal(['Death']);
  });
});
