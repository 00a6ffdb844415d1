import 'reflect-metadata';
import type { HttpPushOptions } from '@keyframe/core';
import { IntegrationTestBed, SCRIPTED_PUSH_TOKEN } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ArenaGameBIntegration, NO_DATA_MESSAGE, NO_PLAYER_DATA_MESSAGE, RESTART_TITLE } from './arena-game-b-integration.js';
import { GSI_CONFIG_FILE_NAME, gsiConfig } from './gsi-config.js';
import { MENU_HEARTBEAT, readLobbyToPostgameBodies, recordedData, SPECTATOR_FILES, withCounters } from './recorded-payloads.js';

const GAME = ['steamapps', 'common', 'dota 2 beta', 'game'];
const CONFIG = ['dota', 'cfg', 'gamestate_integration'];
const DOTA = { name: 'Dota 2' };

/** The same integration with a silence limit short enough for a test. */
class QuickArenaGameBIntegration extends ArenaGameBIntegration {
  protected override readonly noDataTimeoutMs = 30;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ArenaGameBIntegration', () => {
  let temp: string;
  let bed: IntegrationTestBed;

  const resolve = () => bed.resolve(ArenaGameBIntegration);
  /** The subclass is built by hand: tsyringe reads injection tokens from the decorated class only. */
  const quick = () =>
    bed.drive(
      (feeds) => new QuickArenaGameBIntegration(feeds, bed.bookmarks, bed.clock, bed.gamePaths, bed.logger, bed.health, bed.settings),
    );
  /** Delivers one input on the "gsi" feed the way the host does: one handler call at a time, awaited. */
  const push = (body: string, method = 'POST') =>
    bed.feeds.latest('httpPush', 'gsi').deliver({ method, path: '/', body, userAgent: 'Valve/Steam HTTP Client 1.0 (570)' });
  // What the user sees: bookmarks, the current health reason (the host keeps the last one), dialogs, warnings.
  const bookmarks = () => bed.bookmarks.added.map(({ type }) => type);
  const notifications = () => bed.health.notifications.map(({ title }) => title);
  const warnings = () => bed.logger.problems.map(({ message }) => message);

  async function steamLibraryWithDota(name: string): Promise<{ library: string; config: string }> {
    const library = path.join(temp, name);
    await mkdir(path.join(library, ...GAME, 'dota'), { recursive: true });
    return { library, config: path.join(library, ...GAME, ...CONFIG, GSI_CONFIG_FILE_NAME) };
  }

  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'keyframe-arena-game-b-'));
    bed = new IntegrationTestBed({ key: 'arenaGameB', root: temp, port: 1341 });
  });
  afterEach(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  describe('enable', () => {
    it('installs the config in every library that has Dota 2 and asks once for a restart and the launch option', async () => {
      const first = await steamLibraryWithDota('steam');
      const second = await steamLibraryWithDota('games');
      bed.gamePaths.steamLibraryFolders = [first.library, second.library];
      await resolve().enable();
      expect(await readFile(first.config, 'utf8')).to.equal(gsiConfig(SCRIPTED_PUSH_TOKEN, 1341).text);
      expect(await readFile(second.config, 'utf8')).to.equal(gsiConfig(SCRIPTED_PUSH_TOKEN, 1341).text);
      expect(notifications()).to.deep.equal([RESTART_TITLE]);
    });

    it('does not ask again when the config is already there', async () => {
      bed.gamePaths.steamLibraryFolders = [(await steamLibraryWithDota('steam')).library];
      await resolve().enable();
      await resolve().enable();
      expect(notifications()).to.have.length(1);
    });

    it('stays quiet when Dota 2 is not installed', async () => {
      bed.gamePaths.steamLibraryFolders = [path.join(temp, 'nothing-here')];
      await resolve().enable();
      expect(notifications()).to.deep.equal([]);
      expect(bed.health.current).to.equal(undefined);
      expect(warnings()).to.deep.equal([]);
    });

    it('reports a config it cannot write as degraded, without failing, until the game sends data', async () => {
      const { library } = await steamLibraryWithDota('steam');
      // A file where the cfg folder should be: writing below it fails on every platform.
      await writeFile(path.join(library, ...GAME, 'dota', 'cfg'), '');
      bed.gamePaths.steamLibraryFolders = [library];
      const integration = resolve();
      await integration.enable();
      expect(bed.health.current).to.match(
        /^Could not write gamestate_integration_keyframe\.cfg into .*: create it by hand, add -gamestateintegration/,
      );
      await integration.activate(DOTA);
      await integration.deactivate();
      expect(bed.health.current, 'still true while idle').to.match(/^Could not write/);
      await integration.activate(DOTA);
      await push(JSON.stringify({ provider: { appid: 570 }, player: {} }));
      expect(bed.health.current, 'a hand-made config works').to.equal(undefined);
      await integration.deactivate();
    });
  });

  describe('activate', () => {
    it('installs the config next to the running game, even outside the known libraries', async () => {
      const game = path.join(temp, 'elsewhere', 'game');
      await mkdir(path.join(game, 'dota'), { recursive: true });
      const integration = resolve();
      await integration.activate({ name: 'Dota 2', executablePath: path.join(game, 'bin', 'win64', 'dota2.exe') });
      expect(await readFile(path.join(game, ...CONFIG, GSI_CONFIG_FILE_NAME), 'utf8')).to.equal(gsiConfig(SCRIPTED_PUSH_TOKEN, 1341).text);
      expect(notifications()).to.deep.equal([RESTART_TITLE]);
      await integration.deactivate();
    });

    it('listens on the push feed "gsi", port 1341', async () => {
      const integration = resolve();
      await integration.activate(DOTA);
      expect(
        bed.feeds.opened.map(({ kind, id, options }) => ({
          kind,
          id,
          port: (options as HttpPushOptions).port,
          token: (options as HttpPushOptions).token,
        })),
      ).to.deep.equal([{ kind: 'httpPush', id: 'gsi', port: 1341, token: SCRIPTED_PUSH_TOKEN }]);
      await integration.deactivate();
    });

    it('says in health how many pushes came without the token', async () => {
      const integration = resolve();
      await integration.activate(DOTA);
      const { onRefused } = bed.feeds.latest('httpPush', 'gsi').options as HttpPushOptions;
      onRefused!({ reason: 'token', count: 3 });
      expect(bed.health.current).to.match(/^Refused 3 pushes from Dota 2 without Keyframe's token: restart Dota 2/);
      await integration.deactivate();
    });

    it('fails activation with the port and what to do when the listener cannot start', async () => {
      bed.feeds.ready = Promise.reject(
        new Error('httpPush feed "gsi" cannot listen on 127.0.0.1:1341: port 1341 is in use by another program'),
      );
      bed.feeds.ready.catch(() => undefined);
      const failure = await resolve()
        .activate(DOTA)
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).to.be.instanceOf(Error);
      expect((failure as Error).message).to.match(
        /^Cannot listen for Dota 2 on 127\.0\.0\.1:1341: .*in use.*Close the program that uses port 1341/,
      );
    });
  });

  describe('bookmarks', () => {
    it('the recorded lobby-to-post-game session at 0/0/0 gives none, and clears health', async function () {
      recordedData.skipIfAbsent(this);
      const integration = resolve();
      await integration.activate(DOTA);
      for (const body of readLobbyToPostgameBodies()) await push(body);
      expect(bookmarks()).to.deep.equal([]);
      expect(bed.health.current).to.equal(undefined);
      await integration.deactivate();
    });

    it('one per unit from the recorded in-progress payload with raised counters, a multi-kill included', async function () {
      recordedData.skipIfAbsent(this);
      const [, , , , , , , , , , inProgress, postGame] = readLobbyToPostgameBodies();
      const integration = resolve();
      await integration.activate(DOTA);
      await push(inProgress!);
      await push(withCounters(inProgress!, { kills: 1, deaths: 0, assists: 0 }));
      await push(withCounters(inProgress!, { kills: 1, deaths: 1, assists: 0 }));
      await push(withCounters(inProgress!, { kills: 4, deaths: 1, assists: 2 }));
      await push(withCounters(postGame!, { kills: 4, deaths: 1, assists: 2 }));
      expect(bookmarks()).to.deep.equal(['Kill', 'Death', 'Kill', 'Kill', 'Kill', 'Assist', 'Assist']);
      await integration.deactivate();
    });

    it('none from the recorded spectator payloads, before or after a baseline', async function () {
      recordedData.skipIfAbsent(this);
      const integration = resolve();
      await integration.activate(DOTA);
      await push(readLobbyToPostgameBodies()[10]!);
      for (const file of SPECTATOR_FILES) await push(recordedData.text(file));
      expect(bookmarks()).to.deep.equal([]);
      expect(bed.health.current).to.equal(undefined);
      await integration.deactivate();
    });

    it('none from bodies that are not JSON, not POSTs or not from the game, without warnings', async () => {
      const integration = resolve();
      await integration.activate(DOTA);
      await push('{"provider": ');
      await push('');
      await push('{"provider":{"appid":570},"player":{}}', 'GET');
      await push('{"provider":{"appid":730},"map":{},"player":{}}');
      expect(bookmarks()).to.deep.equal([]);
      expect(warnings()).to.deep.equal([]);
      await integration.deactivate();
    });

    it('forgets the match on deactivate: what happened while inactive is not bookmarked', async () => {
      const pushKills = (kills: number) =>
        push(
          JSON.stringify({
            provider: { appid: 570 },
            map: { matchid: '7400000001', game_state: 'DOTA_GAMERULES_STATE_GAME_IN_PROGRESS' },
            player: { kills, deaths: 0, assists: 0 },
          }),
        );
      const integration = resolve();
      await integration.activate(DOTA);
      await pushKills(1);
      await integration.deactivate();
      await pushKills(2);
      await integration.activate(DOTA);
      await pushKills(4);
      await pushKills(5);
      expect(bookmarks()).to.deep.equal(['Kill']);
      await integration.deactivate();
    });
  });

  describe('health', () => {
    it('says what to check when no game data arrives, and clears it with the first push (the menu heartbeat)', async function () {
      recordedData.skipIfAbsent(this);
      const integration = quick();
      await integration.activate(DOTA);
      await delay(80);
      expect(bed.health.current).to.equal(NO_DATA_MESSAGE);
      expect(NO_DATA_MESSAGE).to.include('-gamestateintegration');
      await push(recordedData.text(MENU_HEARTBEAT));
      expect(bed.health.current).to.equal(undefined);
      await integration.deactivate();
    });

    it('stays quiet when the game sends data in time', async () => {
      const integration = quick();
      await integration.activate(DOTA);
      await push('{"provider":{"appid":570},"player":{}}');
      await delay(80);
      expect(bed.health.current).to.equal(undefined);
      await integration.deactivate();
    });

    it('is idle again once deactivated, and stops waiting', async () => {
      const integration = quick();
      await integration.activate(DOTA);
      await delay(80);
      expect(bed.health.current).to.equal(NO_DATA_MESSAGE);
      await integration.deactivate();
      expect(bed.health.current).to.equal(undefined);
      await integration.activate(DOTA);
      await integration.deactivate();
      await delay(80);
      expect(bed.health.current).to.equal(undefined);
    });

    it('says the player block is missing when a match sends no counters, until it does', async () => {
      const integration = resolve();
      await integration.activate(DOTA);
      const inMatch = (player: object) =>
        JSON.stringify({
          provider: { appid: 570 },
          map: { game_state: 'DOTA_GAMERULES_STATE_GAME_IN_PROGRESS' },
          player,
        });
      await push(inMatch({}));
      expect(bed.health.current).to.equal(NO_PLAYER_DATA_MESSAGE);
      await push(inMatch({ kills: 0, deaths: 0, assists: 0 }));
      expect(bed.health.current).to.equal(undefined);
      expect(bookmarks()).to.deep.equal([]);
      await integration.deactivate();
    });
  });
});
