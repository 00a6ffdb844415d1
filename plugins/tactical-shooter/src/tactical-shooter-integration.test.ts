import 'reflect-metadata';
import {
  Bookmarks, Feeds, GamePaths, Health, Logger,
  type BookmarkRequest, type BookmarksService, type Feed, type FeedsService, type GamePathsService, type HealthReporter,
  type HttpPushInput, type HttpPushOptions, type PluginLogger,
} from '@keyframe/core';
import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { container } from 'tsyringe';
import { GSI_CONFIG_FILE_NAME, GSI_CONFIG_TEXT } from './gsi-config.js';
import { readRequestLog, readSessionBodies, skipWithoutGameData } from './recorded-payloads.js';
import { TacticalShooterIntegration } from './tactical-shooter-integration.js';

const NO_DATA = 'No data from Counter-Strike 2 yet: is the config installed and the game restarted?';
const GAME = ['steamapps', 'common', 'Counter-Strike Global Offensive', 'game'];

class FakeFeed implements Feed<HttpPushInput> {
  handler: ((input: HttpPushInput) => void | Promise<void>) | undefined;
  constructor(readonly ready: Promise<void>) {}
  onInput(handler: (input: HttpPushInput) => void | Promise<void>): void {
    this.handler = handler;
  }
  async close(): Promise<void> {}
  /** Delivers one input the way the host does: one handler call at a time, awaited. */
  async push(body: string, method = 'POST', userAgent = 'Valve/Steam HTTP Client 1.0 (730)'): Promise<void> {
    await this.handler!({ method, path: '/', body, userAgent });
  }
}

class FakeFeeds implements FeedsService {
  readonly opened: Array<{ id: string; options: HttpPushOptions; feed: FakeFeed }> = [];
  ready: Promise<void> = Promise.resolve();
  httpPush(id: string, options: HttpPushOptions): Feed<HttpPushInput> {
    const feed = new FakeFeed(this.ready);
    this.opened.push({ id, options, feed });
    return feed;
  }
  poll(): never { throw new Error('not used'); }
  tail(): never { throw new Error('not used'); }
  watchFolder(): never { throw new Error('not used'); }
  get feed(): FakeFeed { return this.opened.at(-1)!.feed; }
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
  readonly notifications: Array<[string, string]> = [];
  degraded(reason: string | undefined): void { this.degradations.push(reason); }
  notify(title: string, description: string): void { this.notifications.push([title, description]); }
}

class FakeLogger implements PluginLogger {
  readonly lines: Array<[string, string]> = [];
  debug(message: string): void { this.lines.push(['debug', message]); }
  info(message: string): void { this.lines.push(['info', message]); }
  warn(message: string): void { this.lines.push(['warn', message]); }
  error(message: string): void { this.lines.push(['error', message]); }
}

/** The same integration with a silence limit short enough for a test. */
class QuickTacticalShooterIntegration extends TacticalShooterIntegration {
  protected override readonly noDataTimeoutMs = 30;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('TacticalShooterIntegration', () => {
  let temp: string;
  let libraries: string[];
  let feeds: FakeFeeds;
  let bookmarks: FakeBookmarks;
  let health: FakeHealth;
  let logger: FakeLogger;

  function gamePaths(): GamePathsService {
    return {
      steamLibraries: async () => libraries,
      roamingAppData: () => path.join(temp, 'roaming'),
      localAppData: () => path.join(temp, 'local'),
      home: () => temp,
    };
  }

  /** Resolves the integration the way the host does: from a child container with the SDK tokens. */
  function resolve(): TacticalShooterIntegration {
    const child = container.createChildContainer();
    child.register(Feeds, { useValue: feeds });
    child.register(Bookmarks, { useValue: bookmarks });
    child.register(GamePaths, { useValue: gamePaths() });
    child.register(Logger, { useValue: logger });
    child.register(Health, { useValue: health });
    return child.resolve(TacticalShooterIntegration);
  }

  /** The subclass is built by hand: tsyringe reads injection tokens from the decorated class only. */
  function quick(): QuickTacticalShooterIntegration {
    return new QuickTacticalShooterIntegration(feeds, bookmarks, gamePaths(), logger, health);
  }

  async function steamLibrary(name: string): Promise<{ library: string; cfg: string }> {
    const library = path.join(temp, name);
    await mkdir(path.join(library, ...GAME, 'csgo'), { recursive: true });
    return { library, cfg: path.join(library, ...GAME, 'csgo', 'cfg') };
  }

  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'keyframe-tactical-shooter-'));
    libraries = [];
    feeds = new FakeFeeds();
    bookmarks = new FakeBookmarks();
    health = new FakeHealth();
    logger = new FakeLogger();
  });
  afterEach(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  describe('enable', () => {
    it('installs the config in every library that has the game and asks for a restart once', async () => {
      const first = await steamLibrary('steam');
      const second = await steamLibrary('games');
      libraries = [first.library, second.library];
      await resolve().enable();
      expect(await readFile(path.join(first.cfg, GSI_CONFIG_FILE_NAME), 'utf8')).to.equal(GSI_CONFIG_TEXT);
      expect(await readFile(path.join(second.cfg, GSI_CONFIG_FILE_NAME), 'utf8')).to.equal(GSI_CONFIG_TEXT);
      expect(health.notifications).to.have.length(1);
      expect(health.notifications[0]![0]).to.equal('Restart Counter-Strike 2');
    });

    it('does not ask for a restart when the config is already there', async () => {
      const { library } = await steamLibrary('steam');
      libraries = [library];
      await resolve().enable();
      await resolve().enable();
      expect(health.notifications).to.have.length(1);
    });

    it('only logs when the game is not installed', async () => {
      libraries = [path.join(temp, 'nothing-here')];
      await resolve().enable();
      expect(health.notifications).to.deep.equal([]);
      expect(health.degradations).to.deep.equal([]);
      expect(logger.lines.filter(([level]) => level === 'warn' || level === 'error')).to.deep.equal([]);
      expect(logger.lines.some(([level, message]) => level === 'info' && /not found/.test(message))).to.equal(true);
    });

    it('reports a config it cannot write as degraded, without failing', async () => {
      const game = path.join(temp, 'steam', ...GAME);
      await mkdir(path.join(game, 'csgo'), { recursive: true });
      // A file where the cfg folder should be: writing into it fails on every platform.
      await import('node:fs/promises').then((fs) => fs.writeFile(path.join(game, 'csgo', 'cfg'), ''));
      libraries = [path.join(temp, 'steam')];
      await resolve().enable();
      expect(health.degradations).to.have.length(1);
      expect(health.degradations[0]).to.match(/Could not write gamestate_integration_keyframe\.cfg/);
      expect(logger.lines.some(([level]) => level === 'warn')).to.equal(true);
    });
  });

  describe('activate', () => {
    it('installs the config next to the running game, even outside the known libraries', async () => {
      const game = path.join(temp, 'elsewhere', 'game');
      await mkdir(path.join(game, 'csgo'), { recursive: true });
      const integration = resolve();
      await integration.activate({ name: 'Counter-Strike 2', executablePath: path.join(game, 'bin', 'win64', 'cs2.exe') });
      expect(await readFile(path.join(game, 'csgo', 'cfg', GSI_CONFIG_FILE_NAME), 'utf8')).to.equal(GSI_CONFIG_TEXT);
      expect(health.notifications).to.have.length(1);
      await integration.deactivate();
    });

    it('listens on the push feed "gsi", port 1340', async () => {
      const integration = resolve();
      await integration.activate({ name: 'Counter-Strike 2' });
      expect(feeds.opened.map(({ id, options }) => ({ id, options }))).to.deep.equal([{ id: 'gsi', options: { port: 1340 } }]);
      await integration.deactivate();
    });

    it('bookmarks the recorded session\'s kills and deaths in order', async function () {
      skipWithoutGameData(this);
      const integration = resolve();
      await integration.activate({ name: 'Counter-Strike 2' });
      for (const body of readSessionBodies()) await feeds.feed.push(JSON.stringify(body));
      expect(bookmarks.added).to.deep.equal(
        ['Kill', 'Death', 'Death', 'Death', 'Death', 'Kill', 'Death'].map((type) => ({ type })),
      );
      expect(health.degradations).to.deep.equal([undefined]);
      await integration.deactivate();
    });

    it('bookmarks the same from the raw request log, foreign requests and all', async function () {
      skipWithoutGameData(this);
      const integration = resolve();
      await integration.activate({ name: 'Counter-Strike 2' });
      for (const request of readRequestLog()) await feeds.feed.push(request.body, request.method, request.headers['user-agent']);
      expect(bookmarks.added.map(({ type }) => type)).to.deep.equal(['Kill', 'Death', 'Death', 'Death', 'Death', 'Kill', 'Death']);
      await integration.deactivate();
    });

    it('adds one bookmark per unit when a push carries several kills', async () => {
      const integration = resolve();
      await integration.activate({ name: 'Counter-Strike 2' });
      const push = (kills: number) => feeds.feed.push(JSON.stringify({
        provider: { appid: 730, steamid: '1' },
        map: { name: 'de_nuke', mode: 'competitive', phase: 'live', round: 4 },
        player: { steamid: '1', activity: 'playing', match_stats: { kills, deaths: 0 } },
      }));
      await push(2);
      await push(5);
      expect(bookmarks.added).to.deep.equal([{ type: 'Kill' }, { type: 'Kill' }, { type: 'Kill' }]);
      await integration.deactivate();
    });

    it('logs a body that is not JSON at debug level and carries on', async () => {
      const integration = resolve();
      await integration.activate({ name: 'Counter-Strike 2' });
      await feeds.feed.push('{"provider": ');
      await feeds.feed.push('');
      await feeds.feed.push('{"provider":{}}', 'GET');
      expect(bookmarks.added).to.deep.equal([]);
      expect(logger.lines.filter(([level]) => level === 'debug').map(([, message]) => message))
        .to.include('Ignored a push that is not JSON');
      expect(logger.lines.some(([level]) => level === 'warn' || level === 'error')).to.equal(false);
      expect(health.degradations, 'a GET is not data from the game').to.deep.equal([]);
      await integration.deactivate();
    });

    it('fails activation with the port and what to do when the listener cannot start', async () => {
      feeds.ready = Promise.reject(new Error('listen EADDRINUSE: address already in use 127.0.0.1:1340'));
      feeds.ready.catch(() => undefined);
      let error: unknown;
      try {
        await resolve().activate({ name: 'Counter-Strike 2' });
      } catch (caught) {
        error = caught;
      }
      expect(error).to.be.instanceOf(Error);
      expect((error as Error).message).to.match(/127\.0\.0\.1:1340: listen EADDRINUSE.*Close the program that uses port 1340/);
    });
  });

  describe('health', () => {
    it('says so when no game data arrives after activation', async () => {
      const integration = quick();
      await integration.activate({ name: 'Counter-Strike 2' });
      await feeds.feed.push('{"map":{"mode":"competitive","phase":"live"},"round":{"phase":"live"}}', 'POST', 'curl/8.0');
      await delay(80);
      expect(health.degradations).to.deep.equal([NO_DATA]);
      await feeds.feed.push(JSON.stringify({ provider: { appid: 730, steamid: '1' }, player: { steamid: '1', activity: 'menu' } }));
      expect(health.degradations).to.deep.equal([NO_DATA, undefined]);
      await integration.deactivate();
    });

    it('stays quiet when the game sends data in time', async () => {
      const integration = quick();
      await integration.activate({ name: 'Counter-Strike 2' });
      await feeds.feed.push(JSON.stringify({ provider: { appid: 730, steamid: '1' }, player: { steamid: '1', activity: 'menu' } }));
      await delay(80);
      expect(health.degradations).to.deep.equal([undefined]);
      await integration.deactivate();
    });

    it('stops waiting on deactivate', async () => {
      const integration = quick();
      await integration.activate({ name: 'Counter-Strike 2' });
      await integration.deactivate();
      await delay(80);
      expect(health.degradations).to.deep.equal([]);
    });
  });

  describe('deactivate', () => {
    it('forgets the match and ignores pushes that arrive before the feed is closed', async () => {
      const integration = resolve();
      const push = (kills: number) => feeds.feed.push(JSON.stringify({
        provider: { steamid: '1' },
        map: { name: 'de_nuke', mode: 'competitive', phase: 'live', round: 4 },
        player: { steamid: '1', match_stats: { kills, deaths: 0 } },
      }));
      await integration.activate({ name: 'Counter-Strike 2' });
      await push(1);
      await integration.deactivate();
      await push(2);
      expect(bookmarks.added).to.deep.equal([]);
      // A new activation starts from a fresh baseline: kills made before it are not bookmarked.
      await integration.activate({ name: 'Counter-Strike 2' });
      await push(4);
      await push(5);
      expect(bookmarks.added).to.deep.equal([{ type: 'Kill' }]);
      await integration.deactivate();
    });
  });
});
