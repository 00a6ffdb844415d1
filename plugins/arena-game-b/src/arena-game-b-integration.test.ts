import 'reflect-metadata';
import {
  Bookmarks, Clock, Feeds, GamePaths, Health, Logger,
  type BookmarkRequest, type BookmarksService, type Feed, type FeedsService, type GamePathsService, type HealthReporter,
  type HttpPushInput, type HttpPushOptions, type PluginLogger,
} from '@keyframe/core';
import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { container } from 'tsyringe';
import {
  ArenaGameBIntegration, NO_DATA_MESSAGE, NO_PLAYER_DATA_MESSAGE, RESTART_TITLE,
} from './arena-game-b-integration.js';
import { GSI_CONFIG_FILE_NAME, GSI_CONFIG_TEXT } from './gsi-config.js';
import {
  MENU_HEARTBEAT, readGameDataText, readLobbyToPostgameBodies, skipWithoutGameData, SPECTATOR_FILES, withCounters,
} from './recorded-payloads.js';

const GAME = ['steamapps', 'common', 'dota 2 beta', 'game'];
const CONFIG = ['dota', 'cfg', 'gamestate_integration'];
const DOTA = { name: 'Dota 2' };

/** The push feed as the host runs it: one handler call at a time, awaited. */
class FakePushFeed implements Feed<HttpPushInput> {
  #handler: ((input: HttpPushInput) => void | Promise<void>) | undefined;
  constructor(readonly ready: Promise<void>) {}
  onInput(handler: (input: HttpPushInput) => void | Promise<void>): void {
    this.#handler = handler;
  }
  async close(): Promise<void> {}
  async push(body: string, method = 'POST'): Promise<void> {
    await this.#handler!({ method, path: '/', body, userAgent: 'Valve/Steam HTTP Client 1.0 (570)' });
  }
}

/** Only `httpPush` exists: the integration opening any other feed is a test failure. */
class FakeFeeds implements FeedsService {
  readonly opened: Array<{ id: string; options: HttpPushOptions }> = [];
  ready: Promise<void> = Promise.resolve();
  feed: FakePushFeed | undefined;
  httpPush(id: string, options: HttpPushOptions): Feed<HttpPushInput> {
    this.opened.push({ id, options });
    this.feed = new FakePushFeed(this.ready);
    return this.feed;
  }
  poll(): never { throw new Error('poll is not used'); }
  tail(): never { throw new Error('tail is not used'); }
  watchFolder(): never { throw new Error('watchFolder is not used'); }
}

/** What the user sees: bookmarks, the current health reason (the host keeps the last one), dialogs, warnings. */
class Observed implements BookmarksService, HealthReporter, PluginLogger {
  readonly bookmarks: string[] = [];
  readonly notifications: string[] = [];
  readonly warnings: string[] = [];
  degradedReason: string | undefined;
  async add(request: BookmarkRequest): Promise<boolean> {
    this.bookmarks.push(request.type);
    return true;
  }
  degraded(reason: string | undefined): void { this.degradedReason = reason; }
  notify(title: string): void { this.notifications.push(title); }
  debug(): void {}
  info(): void {}
  warn(message: string): void { this.warnings.push(message); }
  error(message: string): void { this.warnings.push(message); }
}

/** The same integration with a silence limit short enough for a test. */
class QuickArenaGameBIntegration extends ArenaGameBIntegration {
  protected override readonly noDataTimeoutMs = 30;
}

const clock = { now: () => new Date() };
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ArenaGameBIntegration', () => {
  let temp: string;
  let libraries: string[];
  let feeds: FakeFeeds;
  let seen: Observed;

  function gamePaths(): GamePathsService {
    return {
      steamLibraries: async () => libraries,
      roamingAppData: () => path.join(temp, 'roaming'),
      localAppData: () => path.join(temp, 'local'),
      home: () => temp,
    };
  }

  /** Resolves the integration the way the host does: from a child container with the SDK tokens. */
  function resolve(): ArenaGameBIntegration {
    const child = container.createChildContainer();
    child.register(Feeds, { useValue: feeds });
    child.register(Bookmarks, { useValue: seen });
    child.register(Clock, { useValue: clock });
    child.register(GamePaths, { useValue: gamePaths() });
    child.register(Logger, { useValue: seen });
    child.register(Health, { useValue: seen });
    return child.resolve(ArenaGameBIntegration);
  }

  /** The subclass is built by hand: tsyringe reads injection tokens from the decorated class only. */
  const quick = () => new QuickArenaGameBIntegration(feeds, seen, clock, gamePaths(), seen, seen);

  async function steamLibraryWithDota(name: string): Promise<{ library: string; config: string }> {
    const library = path.join(temp, name);
    await mkdir(path.join(library, ...GAME, 'dota'), { recursive: true });
    return { library, config: path.join(library, ...GAME, ...CONFIG, GSI_CONFIG_FILE_NAME) };
  }

  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'keyframe-arena-game-b-'));
    libraries = [];
    feeds = new FakeFeeds();
    seen = new Observed();
  });
  afterEach(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  describe('enable', () => {
    it('installs the config in every library that has Dota 2 and asks once for a restart and the launch option', async () => {
      const first = await steamLibraryWithDota('steam');
      const second = await steamLibraryWithDota('games');
      libraries = [first.library, second.library];
      await resolve().enable();
      expect(await readFile(first.config, 'utf8')).to.equal(GSI_CONFIG_TEXT);
      expect(await readFile(second.config, 'utf8')).to.equal(GSI_CONFIG_TEXT);
      expect(seen.notifications).to.deep.equal([RESTART_TITLE]);
    });

    it('does not ask again when the config is already there', async () => {
      libraries = [(await steamLibraryWithDota('steam')).library];
      await resolve().enable();
      await resolve().enable();
      expect(seen.notifications).to.have.length(1);
    });

    it('stays quiet when Dota 2 is not installed', async () => {
      libraries = [path.join(temp, 'nothing-here')];
      await resolve().enable();
      expect(seen.notifications).to.deep.equal([]);
      expect(seen.degradedReason).to.equal(undefined);
      expect(seen.warnings).to.deep.equal([]);
    });

    it('reports a config it cannot write as degraded, without failing, until the game sends data', async () => {
      const { library } = await steamLibraryWithDota('steam');
      // A file where the cfg folder should be: writing below it fails on every platform.
      await writeFile(path.join(library, ...GAME, 'dota', 'cfg'), '');
      libraries = [library];
      const integration = resolve();
      await integration.enable();
      expect(seen.degradedReason).to.match(/^Could not write gamestate_integration_keyframe\.cfg into .*: create it by hand, add -gamestateintegration/);
      await integration.activate(DOTA);
      await integration.deactivate();
      expect(seen.degradedReason, 'still true while idle').to.match(/^Could not write/);
      await integration.activate(DOTA);
      await feeds.feed!.push(JSON.stringify({ provider: { appid: 570 }, player: {} }));
      expect(seen.degradedReason, 'a hand-made config works').to.equal(undefined);
      await integration.deactivate();
    });
  });

  describe('activate', () => {
    it('installs the config next to the running game, even outside the known libraries', async () => {
      const game = path.join(temp, 'elsewhere', 'game');
      await mkdir(path.join(game, 'dota'), { recursive: true });
      const integration = resolve();
      await integration.activate({ name: 'Dota 2', executablePath: path.join(game, 'bin', 'win64', 'dota2.exe') });
      expect(await readFile(path.join(game, ...CONFIG, GSI_CONFIG_FILE_NAME), 'utf8')).to.equal(GSI_CONFIG_TEXT);
      expect(seen.notifications).to.deep.equal([RESTART_TITLE]);
      await integration.deactivate();
    });

    it('listens on the push feed "gsi", port 1341', async () => {
      const integration = resolve();
      await integration.activate(DOTA);
      expect(feeds.opened).to.deep.equal([{ id: 'gsi', options: { port: 1341 } }]);
      await integration.deactivate();
    });

    it('fails activation with the port and what to do when the listener cannot start', async () => {
      feeds.ready = Promise.reject(new Error('httpPush feed "gsi" cannot listen on 127.0.0.1:1341: port 1341 is in use by another program'));
      feeds.ready.catch(() => undefined);
      const failure = await resolve().activate(DOTA).then(() => undefined, (error: unknown) => error);
      expect(failure).to.be.instanceOf(Error);
      expect((failure as Error).message).to.match(/^Cannot listen for Dota 2 on 127\.0\.0\.1:1341: .*in use.*Close the program that uses port 1341/);
    });
  });

  describe('bookmarks', () => {
    it('the recorded lobby-to-post-game session at 0/0/0 gives none, and clears health', async function () {
      skipWithoutGameData(this);
      const integration = resolve();
      await integration.activate(DOTA);
      for (const body of readLobbyToPostgameBodies()) await feeds.feed!.push(body);
      expect(seen.bookmarks).to.deep.equal([]);
      expect(seen.degradedReason).to.equal(undefined);
      await integration.deactivate();
    });

    it('one per unit from the recorded in-progress payload with raised counters, a multi-kill included', async function () {
      skipWithoutGameData(this);
      const [, , , , , , , , , , inProgress, postGame] = readLobbyToPostgameBodies();
      const integration = resolve();
      await integration.activate(DOTA);
      await feeds.feed!.push(inProgress!);
      await feeds.feed!.push(withCounters(inProgress!, { kills: 1, deaths: 0, assists: 0 }));
      await feeds.feed!.push(withCounters(inProgress!, { kills: 1, deaths: 1, assists: 0 }));
      await feeds.feed!.push(withCounters(inProgress!, { kills: 4, deaths: 1, assists: 2 }));
      await feeds.feed!.push(withCounters(postGame!, { kills: 4, deaths: 1, assists: 2 }));
      expect(seen.bookmarks).to.deep.equal(['Kill', 'Death', 'Kill', 'Kill', 'Kill', 'Assist', 'Assist']);
      await integration.deactivate();
    });

    it('none from the recorded spectator payloads, before or after a baseline', async function () {
      skipWithoutGameData(this);
      const integration = resolve();
      await integration.activate(DOTA);
      await feeds.feed!.push(readLobbyToPostgameBodies()[10]!);
      for (const file of SPECTATOR_FILES) await feeds.feed!.push(readGameDataText(file));
      expect(seen.bookmarks).to.deep.equal([]);
      expect(seen.degradedReason).to.equal(undefined);
      await integration.deactivate();
    });

    it('none from bodies that are not JSON, not POSTs or not from the game, without warnings', async () => {
      const integration = resolve();
      await integration.activate(DOTA);
      await feeds.feed!.push('{"provider": ');
      await feeds.feed!.push('');
      await feeds.feed!.push('{"provider":{"appid":570},"player":{}}', 'GET');
      await feeds.feed!.push('{"provider":{"appid":730},"map":{},"player":{}}');
      expect(seen.bookmarks).to.deep.equal([]);
      expect(seen.warnings).to.deep.equal([]);
      await integration.deactivate();
    });

    it('forgets the match on deactivate: what happened while inactive is not bookmarked', async () => {
      const push = (kills: number) => feeds.feed!.push(JSON.stringify({
        provider: { appid: 570 },
        map: { matchid: '7400000001', game_state: 'DOTA_GAMERULES_STATE_GAME_IN_PROGRESS' },
        player: { kills, deaths: 0, assists: 0 },
      }));
      const integration = resolve();
      await integration.activate(DOTA);
      await push(1);
      await integration.deactivate();
      await push(2);
      await integration.activate(DOTA);
      await push(4);
      await push(5);
      expect(seen.bookmarks).to.deep.equal(['Kill']);
      await integration.deactivate();
    });
  });

  describe('health', () => {
    it('says what to check when no game data arrives, and clears it with the first push (the menu heartbeat)', async function () {
      skipWithoutGameData(this);
      const integration = quick();
      await integration.activate(DOTA);
      await feeds.feed!.push('{"map":{"game_state":"DOTA_GAMERULES_STATE_GAME_IN_PROGRESS"}}');
      await delay(80);
      expect(seen.degradedReason).to.equal(NO_DATA_MESSAGE);
      expect(NO_DATA_MESSAGE).to.include('-gamestateintegration');
      await feeds.feed!.push(readGameDataText(MENU_HEARTBEAT));
      expect(seen.degradedReason).to.equal(undefined);
      await integration.deactivate();
    });

    it('stays quiet when the game sends data in time', async () => {
      const integration = quick();
      await integration.activate(DOTA);
      await feeds.feed!.push('{"provider":{"appid":570},"player":{}}');
      await delay(80);
      expect(seen.degradedReason).to.equal(undefined);
      await integration.deactivate();
    });

    it('is idle again once deactivated, and stops waiting', async () => {
      const integration = quick();
      await integration.activate(DOTA);
      await delay(80);
      expect(seen.degradedReason).to.equal(NO_DATA_MESSAGE);
      await integration.deactivate();
      expect(seen.degradedReason).to.equal(undefined);
      await integration.activate(DOTA);
      await integration.deactivate();
      await delay(80);
      expect(seen.degradedReason).to.equal(undefined);
    });

    it('says the player block is missing when a match sends no counters, until it does', async () => {
      const integration = resolve();
      await integration.activate(DOTA);
      const inMatch = (player: object) => JSON.stringify({
        provider: { appid: 570 }, map: { game_state: 'DOTA_GAMERULES_STATE_GAME_IN_PROGRESS' }, player,
      });
      await feeds.feed!.push(inMatch({}));
      expect(seen.degradedReason).to.equal(NO_PLAYER_DATA_MESSAGE);
      await feeds.feed!.push(inMatch({ kills: 0, deaths: 0, assists: 0 }));
      expect(seen.degradedReason).to.equal(undefined);
      expect(seen.bookmarks).to.deep.equal([]);
      await integration.deactivate();
    });
  });
});
