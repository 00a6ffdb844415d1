// Issue 18, games: while Counter-Strike 2 or Dota 2 is recorded, only the game may post to their
// receivers on 127.0.0.1:1340/1341. A web page (which a browser lets post to any loopback port) is
// refused by its Origin/Sec-Fetch-* headers, and any other poster by the token the game's config
// carries; a stale config shows in the integration's health. And a game another account runs on
// the same machine starts no recording.
import 'reflect-metadata';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, copyFile, mkdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium } from 'playwright-core';
import {
  createTempFolder,
  IntegrationService,
  postAsGame,
  ProtocolClient,
  readPushToken,
  ServiceProcess,
  StandInGame,
  type TempFolder,
  withPushToken,
} from '@keyframe/integration-testkit';
import type { State } from '@keyframe/core/protocol';
import { CHROMIUM_PATH } from '../kit/browser.js';

const CS2_PORT = 1340;
const DOTA_PORT = 1341;
const CS2_GAME = path.join('steam', 'steamapps', 'common', 'Counter-Strike Global Offensive', 'game');
const DOTA_GAME = path.join('steam', 'steamapps', 'common', 'dota 2 beta', 'game');
const ME = '76561198000000001';

/** A CS2 push with the local player's kill count (the first one seen is the baseline). */
const cs2Push = (kills: number) =>
  JSON.stringify({
    provider: { name: 'Counter-Strike: Global Offensive', appid: 730, version: 14120, steamid: ME, timestamp: 1763800000 },
    map: { mode: 'competitive', name: 'de_mirage', phase: 'live', round: 1 },
    player: { steamid: ME, name: 'Me', activity: 'playing', match_stats: { kills, assists: 0, deaths: 0, mvps: 0, score: 0 } },
  });

/** A Dota 2 push in a match with the local player's kill count. */
const dotaPush = (kills: number) =>
  JSON.stringify({
    provider: { name: 'Dota 2', appid: 570, version: 47, timestamp: 1763800000 },
    map: {
      name: 'start',
      matchid: '7000000001',
      game_time: 600,
      clock_time: 540,
      game_state: 'DOTA_GAMERULES_STATE_GAME_IN_PROGRESS',
      paused: false,
    },
    player: { steamid: ME, accountid: '39734273', name: 'Me', activity: 'playing', kills, deaths: 0, assists: 0 },
  });

/**
 * The service with one integration on, its game installed in a Steam library (`<gameFolder>/<modFolder>`)
 * and running as a stand-in (`<gameFolder>/bin/linuxsteamrt64/<executable>`), recording with the
 * integration active; `token` is the one the service wrote into the game's config.
 */
async function recordingWithGame(
  integration: string,
  gameFolder: string,
  modFolder: string,
  executable: string,
): Promise<{ keyframe: IntegrationService; token: string }> {
  const keyframe = await IntegrationService.start({
    integration,
    prepare: async (temp) => {
      await mkdir(path.join(temp.path, gameFolder, modFolder), { recursive: true });
    },
    // Refusals after the first are debug lines, which the log file leaves out by default; this suite counts them.
    env: (temp) => ({ KEYFRAME_STEAM_LIBRARIES: path.join(temp.path, 'steam'), KEYFRAME_LOG_LEVEL: 'debug' }),
  });
  const token = await readPushToken(path.join(keyframe.temp.path, 'data'));
  await keyframe.startGame(path.join(gameFolder, 'bin', 'linuxsteamrt64', executable));
  await keyframe.recordWhileActive();
  return { keyframe, token };
}

/** Records of the service's log file (JSON lines, debug and up as the suite asks) in `dataFolder` whose message matches. */
async function loggedRecords(dataFolder: string, message: RegExp): Promise<{ message: string; fields?: Record<string, unknown> }[]> {
  const text = await readFile(path.join(dataFolder, 'logs', 'keyframe.log'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { message: string; fields?: Record<string, unknown> })
    .filter((record) => message.test(record.message));
}

/** The game's token with its last character changed: one that differs whatever that character was. */
const wrongToken = (token: string) => `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;

describe('game push receivers refuse all but the game', function () {
  this.timeout(120_000);

  describe('Counter-Strike 2 (127.0.0.1:1340) while a recording runs', () => {
    let keyframe: IntegrationService;
    let token: string;
    const bookmarks = () => keyframe.client.latest('State')!.recording!.bookmarks.map((bookmark) => bookmark.type);
    const healthMessage = (state: State = keyframe.client.latest('State')!) => keyframe.health(state)?.message ?? '';

    before(async function () {
      if (!StandInGame.supported) this.skip();
      ({ keyframe, token } = await recordingWithGame('tacticalShooter', CS2_GAME, 'csgo', 'cs2'));
    });
    after(() => keyframe?.stop());

    it("writes the token into the game's config, and bookmarks the game's pushes that carry it", async () => {
      const config = await readFile(path.join(keyframe.temp.path, CS2_GAME, 'csgo', 'cfg', 'gamestate_integration_keyframe.cfg'), 'utf8');
      expect(config).to.include(`\t"auth"\n\t{\n\t\t"token"\t"${token}"\n\t}\n`);
      expect(await postAsGame(CS2_PORT, withPushToken(cs2Push(0), token))).to.equal(200);
      expect(await postAsGame(CS2_PORT, withPushToken(cs2Push(1), token))).to.equal(200);
      expect(await keyframe.bookmarksReach(1)).to.deep.equal(['Kill']);
    });

    it('adds no bookmark for a real Chromium page on another loopback origin: fetch (no-cors, text/plain) and a form post, even with the token', async () => {
      // The worst case: the page knows the token. Kills 5 would give four bookmarks if any got through.
      const forged = withPushToken(cs2Push(5), token);
      const [formName, formValue] = [`${forged.slice(0, -1)},"pad":"`, '"}']; // text/plain form: name=value → the JSON above
      const page = `<!doctype html><meta charset="utf-8"><title>cat pictures</title>
        <form id="form" method="POST" action="http://127.0.0.1:${CS2_PORT}/" enctype="text/plain">
          <input type="hidden" name='${formName.replace(/'/g, '&#39;')}' value='${formValue}'>
        </form>`;
      const site: Server = createServer((_request, response) => response.writeHead(200, { 'Content-Type': 'text/html' }).end(page));
      site.listen(0, '127.0.0.1');
      await once(site, 'listening');
      const browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
      });
      try {
        const tab = await browser.newPage();
        await tab.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
        for (const target of [`http://127.0.0.1:${CS2_PORT}/`, `http://localhost:${CS2_PORT}/`]) {
          await tab.evaluate(
            async ({ target, body }) => {
              await fetch(target, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body }).catch(
                () => undefined,
              );
            },
            { target, body: forged },
          );
        }
        const answer = tab.waitForResponse((response) => response.url().startsWith(`http://127.0.0.1:${CS2_PORT}/`));
        await tab.evaluate('document.getElementById("form").submit()');
        expect((await answer).status(), 'the form post').to.equal(403);
      } finally {
        await browser.close();
        await new Promise((resolve) => site.close(resolve));
      }

      const refusals = await loggedRecords(path.join(keyframe.temp.path, 'data'), /refused a request from a web page/);
      expect(
        refusals.map((record) => record.fields?.count),
        'refusals logged by the receiver',
      ).to.deep.equal([1, 2, 3]);
      expect(refusals[0]!.fields?.origin).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(keyframe.service.printed, 'the first refusal is a warning').to.match(/WARN .*refused a request from a web page/);
      // The game's next push is counted from the last real baseline (1 kill): nothing came in between.
      expect(await postAsGame(CS2_PORT, withPushToken(cs2Push(2), token))).to.equal(200);
      expect(await keyframe.bookmarksReach(2)).to.deep.equal(['Kill', 'Kill']);
    });

    it('refuses a game-like POST that carries an Origin header, even with the right token', async () => {
      expect(await postAsGame(CS2_PORT, withPushToken(cs2Push(9), token), { headers: { Origin: 'http://127.0.0.1:8080' } })).to.equal(403);
      expect(await postAsGame(CS2_PORT, withPushToken(cs2Push(9), token), { headers: { 'Sec-Fetch-Site': 'cross-site' } })).to.equal(403);
      expect(await postAsGame(CS2_PORT, withPushToken(cs2Push(3), token))).to.equal(200);
      expect(await keyframe.bookmarksReach(3)).to.deep.equal(['Kill', 'Kill', 'Kill']);
    });

    it('refuses pushes with a wrong or no token, and says in health that the game must be restarted', async () => {
      expect(await postAsGame(CS2_PORT, withPushToken(cs2Push(20), wrongToken(token)))).to.equal(403);
      expect(await postAsGame(CS2_PORT, cs2Push(20))).to.equal(403);
      const state = await keyframe.client.until('State', (next) => /^Refused 2 pushes/.test(healthMessage(next)), 10_000);
      expect(keyframe.health(state)).to.deep.include({ status: 'degraded' });
      expect(healthMessage(state)).to.equal(
        "Refused 2 pushes from Counter-Strike 2 without Keyframe's token: restart Counter-Strike 2 so that it reads the game state config " +
          'Keyframe installed (if you changed that file, delete it so that Keyframe writes it again).',
      );
      expect(healthMessage(state), 'health never shows the token').to.not.include(token);
      expect(bookmarks()).to.deep.equal(['Kill', 'Kill', 'Kill']);
      expect(
        await readFile(path.join(keyframe.temp.path, 'data', 'logs', 'keyframe.log'), 'utf8'),
        'the log never holds the token',
      ).to.not.include(token);
    });
  });

  describe('Dota 2 (127.0.0.1:1341) while a recording runs', () => {
    let keyframe: IntegrationService;
    let token: string;

    before(async function () {
      if (!StandInGame.supported) this.skip();
      ({ keyframe, token } = await recordingWithGame('arenaGameB', DOTA_GAME, 'dota', 'dota2'));
    });
    after(() => keyframe?.stop());

    it("follows the same rules: browser headers and a wrong token are refused, the game's token is bookmarked", async () => {
      const config = await readFile(
        path.join(keyframe.temp.path, DOTA_GAME, 'dota', 'cfg', 'gamestate_integration', 'gamestate_integration_keyframe.cfg'),
        'utf8',
      );
      expect(config).to.include(`"token"\t"${token}"`);
      const asDota = { userAgent: 'Valve/Steam HTTP Client 1.0 (570)' };
      expect(await postAsGame(DOTA_PORT, withPushToken(dotaPush(0), token), asDota)).to.equal(200);
      expect(await postAsGame(DOTA_PORT, withPushToken(dotaPush(3), token), { ...asDota, headers: { Origin: 'null' } })).to.equal(403);
      expect(
        await postAsGame(DOTA_PORT, withPushToken(dotaPush(3), token), { ...asDota, headers: { 'Sec-Fetch-Mode': 'no-cors' } }),
      ).to.equal(403);
      expect(await postAsGame(DOTA_PORT, withPushToken(dotaPush(3), 'WrongToken0123456789'), asDota)).to.equal(403);
      const state = await keyframe.client.until(
        'State',
        (next) => /^Refused 1 push from Dota 2 without Keyframe's token: restart Dota 2/.test(keyframe.health(next)?.message ?? ''),
        10_000,
      );
      expect(keyframe.health(state)?.status).to.equal('degraded');
      expect(await postAsGame(DOTA_PORT, withPushToken(dotaPush(1), token), asDota)).to.equal(200);
      expect(await keyframe.bookmarksReach(1)).to.deep.equal(['Kill']);
    });
  });
});

describe('game detection on a machine shared by several accounts', function () {
  this.timeout(60_000);
  describe('a stand-in game of the account nobody and one of this account', () => {
    const NOBODY = 65534;
    const GAME = { name: 'Shared Machine Game', paths: ['keyframe-shared-machine-game'], record: true };
    /** Seen in the same detection pass as the other account's game; never recorded. */
    const BARRIER = { name: 'Barrier Game', paths: ['keyframe-barrier-game'], record: false };
    let temp: TempFolder;
    let service: ServiceProcess;
    let client: ProtocolClient;
    const games: ChildProcess[] = [];

    /** A stand-in for the game, copied into a folder of its own (a running copy cannot be overwritten). */
    async function launch(name: string, user?: { uid: number; gid: number }): Promise<ChildProcess> {
      const folder = path.join(temp.path, 'bin', user ? 'theirs' : 'ours');
      await mkdir(folder, { recursive: true });
      await chmod(folder, 0o755);
      const file = path.join(folder, name);
      await copyFile('/bin/sleep', file); // 0755 like /bin/sleep: the other account may run it
      const game = spawn(file, ['120'], { stdio: 'ignore', ...user });
      games.push(game);
      await once(game, 'spawn');
      return game;
    }

    before(async function () {
      if (process.platform !== 'linux' || process.getuid!() !== 0) {
        this.test!.parent!.title += ' (skipped: needs Linux and root, to start a process as another user)';
        this.skip();
      }
      temp = await createTempFolder();
      await mkdir(path.join(temp.path, 'bin'));
      await mkdir(path.join(temp.path, 'steam'));
      for (const folder of [temp.path, path.join(temp.path, 'bin')]) await chmod(folder, 0o755);
      service = await ServiceProcess.start({
        dataFolder: path.join(temp.path, 'data'),
        legacyPort: 'off',
        gameProcessRoot: temp.path,
        env: { KEYFRAME_CAPTURE: 'synthetic', KEYFRAME_STEAM_LIBRARIES: path.join(temp.path, 'steam') },
      });
      client = await ProtocolClient.connect(service.url);
      await client.handshake();
      client.send('UpdateSettings', {
        resolution: '720p',
        frameRate: 30,
        recordingMode: 'Session',
        contentFolder: path.join(temp.path, 'videos'),
        games: [GAME, BARRIER],
      });
      await client.next('Settings');
    });
    after(async () => {
      for (const game of games) game.kill('SIGKILL');
      await client?.close();
      await service?.stop();
      await temp?.remove();
    });

    it('does not record a game another account started, and records the same game started by this one', async () => {
      const idle = (state: State) => state.recording === null && state.preRecording === null;
      await client.until('State', idle, 10_000);
      const from = client.events.length;
      const theirs = await launch('keyframe-shared-machine-game', { uid: NOBODY, gid: NOBODY });
      await launch('keyframe-barrier-game');
      const seen = path.join(temp.path, 'data');
      let pass: { fields?: Record<string, unknown> } | undefined;
      const deadline = Date.now() + 10_000;
      while (pass === undefined) {
        if (Date.now() > deadline) throw new Error('the detector did not see the barrier game within 10 s');
        [pass] = (await loggedRecords(seen, /^running games changed$/)).filter((record) =>
          (record.fields?.games as string[]).includes(BARRIER.name),
        );
        if (pass === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(pass.fields?.games, 'the pass that saw the barrier game').to.deep.equal([BARRIER.name]);
      const states = client.events
        .slice(from)
        .filter((event) => event.method === 'State')
        .map((event) => event.content as State);
      expect(states.every(idle), 'no preRecording, no recording').to.equal(true);
      expect(theirs.exitCode, "the other account's game still runs").to.equal(null);

      const ours = await launch('keyframe-shared-machine-game');
      const recording = (await client.until('State', (state) => state.recording !== null, 30_000)).recording!;
      expect(recording).to.deep.include({ game: GAME.name, pid: ours.pid! });
    });
  });
});
