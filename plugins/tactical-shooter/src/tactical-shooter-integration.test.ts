import 'reflect-metadata';
import type { HttpPushOptions } from '@keyframe/core';
import { IntegrationTestBed, SCRIPTED_PUSH_TOKEN } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GSI_CONFIG_FILE_NAME, gsiConfig } from './gsi-config.js';
import { readRequestLog, readSessionBodies, recordedData } from './recorded-payloads.js';
import { TacticalShooterIntegration } from './tactical-shooter-integration.js';

const NO_DATA = 'No data from Counter-Strike 2 yet: is the config installed and the game restarted?';
const GAME = ['steamapps', 'common', 'Counter-Strike Global Offensive', 'game'];

/** The same integration with a silence limit short enough for a test. */
class QuickTacticalShooterIntegration extends TacticalShooterIntegration {
  protected override readonly noDataTimeoutMs = 30;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('TacticalShooterIntegration', () => {
  let temp: string;
  let bed: IntegrationTestBed;

  const resolve = () => bed.resolve(TacticalShooterIntegration);
  /** The subclass is built by hand: tsyringe reads injection tokens from the decorated class only. */
  const quick = () =>
    bed.drive((feeds) => new QuickTacticalShooterIntegration(feeds, bed.bookmarks, bed.gamePaths, bed.logger, bed.health, bed.settings));
  /** Delivers one input on the "gsi" feed the way the host does: one handler call at a time, awaited. */
  const push = (body: string, method = 'POST', userAgent = 'Valve/Steam HTTP Client 1.0 (730)') =>
    bed.feeds.latest('httpPush', 'gsi').deliver({ method, path: '/', body, userAgent });
  const logged = (level: string) => bed.logger.lines.filter((line) => line.level === level).map((line) => line.message);

  async function steamLibrary(name: string): Promise<{ library: string; cfg: string }> {
    const library = path.join(temp, name);
    await mkdir(path.join(library, ...GAME, 'csgo'), { recursive: true });
    return { library, cfg: path.join(library, ...GAME, 'csgo', 'cfg') };
  }

  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'keyframe-tactical-shooter-'));
    bed = new IntegrationTestBed({ key: 'tacticalShooter', root: temp, port: 1340 });
  });
  afterEach(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  describe('enable', () => {
    it('installs the config in every library that has the game and asks for a restart once', async () => {
      const first = await steamLibrary('steam');
      const second = await steamLibrary('games');
      bed.gamePaths.steamLibraryFolders = [first.library, second.library];
      await resolve().enable();
      expect(await readFile(path.join(first.cfg, GSI_CONFIG_FILE_NAME), 'utf8')).to.equal(gsiConfig(SCRIPTED_PUSH_TOKEN, 1340).text);
      expect(await readFile(path.join(second.cfg, GSI_CONFIG_FILE_NAME), 'utf8')).to.equal(gsiConfig(SCRIPTED_PUSH_TOKEN, 1340).text);
      expect(bed.health.notifications).to.have.length(1);
      expect(bed.health.notifications[0]!.title).to.equal('Restart Counter-Strike 2');
    });

    it('does not ask for a restart when the config is already there', async () => {
      const { library } = await steamLibrary('steam');
      bed.gamePaths.steamLibraryFolders = [library];
      await resolve().enable();
      await resolve().enable();
      expect(bed.health.notifications).to.have.length(1);
    });

    it('only logs when the game is not installed', async () => {
      bed.gamePaths.steamLibraryFolders = [path.join(temp, 'nothing-here')];
      await resolve().enable();
      expect(bed.health.notifications).to.deep.equal([]);
      expect(bed.health.degradations).to.deep.equal([]);
      expect(bed.logger.problems).to.deep.equal([]);
      expect(logged('info').some((message) => /not found/.test(message))).to.equal(true);
    });

    it('reports a config it cannot write as degraded, without failing', async () => {
      const game = path.join(temp, 'steam', ...GAME);
      await mkdir(path.join(game, 'csgo'), { recursive: true });
      // A file where the cfg folder should be: writing into it fails on every platform.
      await writeFile(path.join(game, 'csgo', 'cfg'), '');
      bed.gamePaths.steamLibraryFolders = [path.join(temp, 'steam')];
      await resolve().enable();
      expect(bed.health.degradations).to.have.length(1);
      expect(bed.health.degradations[0]).to.match(/Could not write gamestate_integration_keyframe\.cfg/);
      expect(logged('warn')).to.not.deep.equal([]);
    });
  });

  describe("a config of the user's without the token", () => {
    it('is kept, and health says what to do', async () => {
      const { library, cfg } = await steamLibrary('steam');
      await mkdir(cfg, { recursive: true });
      const own = '"keyframe"\n{\n\t"uri"\t"http://localhost:1340/"\n}\n';
      await writeFile(path.join(cfg, GSI_CONFIG_FILE_NAME), own);
      bed.gamePaths.steamLibraryFolders = [library];
      await resolve().enable();
      expect(await readFile(path.join(cfg, GSI_CONFIG_FILE_NAME), 'utf8')).to.equal(own);
      expect(bed.health.current).to.match(
        /^Your gamestate_integration_keyframe\.cfg in .* has no "auth" block with Keyframe's token, so Counter-Strike 2's pushes are refused: delete gamestate_integration_keyframe\.cfg so that Keyframe writes it again/,
      );
      expect(bed.health.current, 'the token is no text for health').to.not.include(SCRIPTED_PUSH_TOKEN);
    });
  });

  describe('activate', () => {
    it('installs the config next to the running game, even outside the known libraries', async () => {
      const game = path.join(temp, 'elsewhere', 'game');
      await mkdir(path.join(game, 'csgo'), { recursive: true });
      const integration = resolve();
      await integration.activate({ name: 'Counter-Strike 2', executablePath: path.join(game, 'bin', 'win64', 'cs2.exe') });
      expect(await readFile(path.join(game, 'csgo', 'cfg', GSI_CONFIG_FILE_NAME), 'utf8')).to.equal(
        gsiConfig(SCRIPTED_PUSH_TOKEN, 1340).text,
      );
      expect(bed.health.notifications).to.have.length(1);
      await integration.deactivate();
    });

    it('listens on the push feed "gsi", port 1340, for pushes with the data folder\'s token', async () => {
      const integration = resolve();
      await integration.activate({ name: 'Counter-Strike 2' });
      expect(
        bed.feeds.opened.map(({ id, options }) => ({
          id,
          port: (options as HttpPushOptions).port,
          token: (options as HttpPushOptions).token,
        })),
      ).to.deep.equal([{ id: 'gsi', port: 1340, token: SCRIPTED_PUSH_TOKEN }]);
      await integration.deactivate();
    });

    it('says in health how many pushes came without the token, and that the game must be restarted', async () => {
      const integration = quick();
      await integration.activate({ name: 'Counter-Strike 2' });
      const { onRefused } = bed.feeds.latest('httpPush', 'gsi').options as HttpPushOptions;
      onRefused!({ reason: 'browser', count: 1 });
      expect(bed.health.current, "a web page's request is no config problem").to.equal(undefined);
      onRefused!({ reason: 'token', count: 1 });
      onRefused!({ reason: 'token', count: 2 });
      expect(bed.health.current).to.match(/^Refused 2 pushes from Counter-Strike 2 without Keyframe's token: restart Counter-Strike 2/);
      await delay(60);
      expect(bed.health.current, 'the game sends, so no "no data" warning').to.not.equal(NO_DATA);
      await integration.deactivate();
      expect(bed.health.current, 'game closed or recording stopped: no longer news').to.equal(undefined);
    });

    it("bookmarks the recorded session's kills and deaths in order", async function () {
      recordedData.skipIfAbsent(this);
      const integration = resolve();
      await integration.activate({ name: 'Counter-Strike 2' });
      for (const body of readSessionBodies()) await push(JSON.stringify(body));
      expect(bed.bookmarks.added).to.deep.equal(['Kill', 'Death', 'Death', 'Death', 'Death', 'Kill', 'Death'].map((type) => ({ type })));
      expect(bed.health.degradations).to.deep.equal([undefined]);
      await integration.deactivate();
    });

    it('bookmarks the same from the raw request log, foreign requests and all', async function () {
      recordedData.skipIfAbsent(this);
      const integration = resolve();
      await integration.activate({ name: 'Counter-Strike 2' });
      for (const request of readRequestLog()) await push(request.body, request.method, request.headers['user-agent']);
      expect(bed.bookmarks.added.map(({ type }) => type)).to.deep.equal(['Kill', 'Death', 'Death', 'Death', 'Death', 'Kill', 'Death']);
      await integration.deactivate();
    });

    it('adds one bookmark per unit when a push carries several kills', async () => {
      const integration = resolve();
      await integration.activate({ name: 'Counter-Strike 2' });
      const pushKills = (kills: number) =>
        push(
          JSON.stringify({
            provider: { appid: 730, steamid: '1' },
            map: { name: 'de_nuke', mode: 'competitive', phase: 'live', round: 4 },
            player: { steamid: '1', activity: 'playing', match_stats: { kills, deaths: 0 } },
          }),
        );
      await pushKills(2);
      await pushKills(5);
      expect(bed.bookmarks.added).to.deep.equal([{ type: 'Kill' }, { type: 'Kill' }, { type: 'Kill' }]);
      await integration.deactivate();
    });

    it('logs a body that is not JSON at debug level and carries on', async () => {
      const integration = resolve();
      await integration.activate({ name: 'Counter-Strike 2' });
      await push('{"provider": ');
      await push('');
      await push('{"provider":{}}', 'GET');
      expect(bed.bookmarks.added).to.deep.equal([]);
      expect(logged('debug')).to.include('Ignored a push that is not JSON');
      expect(bed.logger.problems).to.deep.equal([]);
      expect(bed.health.degradations, 'a GET is not data from the game').to.deep.equal([]);
      await integration.deactivate();
    });

    it('fails activation with the port and what to do when the listener cannot start', async () => {
      bed.feeds.ready = Promise.reject(new Error('listen EADDRINUSE: address already in use 127.0.0.1:1340'));
      bed.feeds.ready.catch(() => undefined);
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
      await delay(80);
      expect(bed.health.changes).to.deep.equal([NO_DATA]);
      await push(JSON.stringify({ provider: { appid: 730, steamid: '1' }, player: { steamid: '1', activity: 'menu' } }));
      expect(bed.health.changes).to.deep.equal([NO_DATA, undefined]);
      await integration.deactivate();
    });

    it('stays quiet when the game sends data in time', async () => {
      const integration = quick();
      await integration.activate({ name: 'Counter-Strike 2' });
      await push(JSON.stringify({ provider: { appid: 730, steamid: '1' }, player: { steamid: '1', activity: 'menu' } }));
      await delay(80);
      expect(bed.health.degradations).to.deep.equal([undefined]);
      await integration.deactivate();
    });

    it('stops waiting on deactivate', async () => {
      const integration = quick();
      await integration.activate({ name: 'Counter-Strike 2' });
      await integration.deactivate();
      await delay(80);
      expect(bed.health.degradations).to.deep.equal([]);
    });
  });

  describe('deactivate', () => {
    it('forgets the match and ignores pushes that arrive before the feed is closed', async () => {
      const integration = resolve();
      const pushKills = (kills: number) =>
        push(
          JSON.stringify({
            provider: { steamid: '1' },
            map: { name: 'de_nuke', mode: 'competitive', phase: 'live', round: 4 },
            player: { steamid: '1', match_stats: { kills, deaths: 0 } },
          }),
        );
      await integration.activate({ name: 'Counter-Strike 2' });
      await pushKills(1);
      await integration.deactivate();
      await pushKills(2);
      expect(bed.bookmarks.added).to.deep.equal([]);
      // A new activation starts from a fresh baseline: kills made before it are not bookmarked.
      await integration.activate({ name: 'Counter-Strike 2' });
      await pushKills(4);
      await pushKills(5);
      expect(bed.bookmarks.added).to.deep.equal([{ type: 'Kill' }]);
      await integration.deactivate();
    });
  });
});
