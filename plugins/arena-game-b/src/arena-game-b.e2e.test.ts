// The arena-game-b integration end to end: the service finds Dota 2 in a Steam library, writes its
// push config, activates during a (synthetic) recording while a stand-in for dota2 runs, and game
// pushes POSTed to port 1341 become bookmarks in `State` and then in the finished session's metadata.
import 'reflect-metadata';
import { parseDuration } from '@keyframe/core/protocol';
import { IntegrationService, postAsGame, readPushToken, StandInGame, withPushToken } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { GSI_CONFIG_FILE_NAME } from './gsi-config.js';

import { readLobbyToPostgameBodies, recordedData, SPECTATOR_FILES, withCounters } from './recorded-payloads.js';

/** The manifest's httpPush port. */
const GSI_PORT = 1341;

const GAME_FOLDER = path.join('steam', 'steamapps', 'common', 'dota 2 beta', 'game');
const SECONDS_BETWEEN_EVENTS = 1.5;

const USER_AGENT = 'Valve/Steam HTTP Client 1.0 (570)';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('arena-game-b end to end', function () {
  this.timeout(90_000);
  let keyframe: IntegrationService;
  /** Posts `body` as Dota 2 with the service's config sends it: with the data folder's token. */
  let post: (body: string) => Promise<number>;

  before(async function () {
    recordedData.skipIfAbsent(this);
    if (!StandInGame.supported) this.skip();
    keyframe = await IntegrationService.start({
      integration: 'arenaGameB',
      // The game's dota folder is there when the service enables the integration and writes its config.
      prepare: async (temp) => {
        await mkdir(path.join(temp.path, GAME_FOLDER, 'dota'), { recursive: true });
      },
      env: (temp) => ({ KEYFRAME_STEAM_LIBRARIES: path.join(temp.path, 'steam') }),
    });
  });
  before(async () => {
    const token = await readPushToken(path.join(keyframe.temp.path, 'data'));
    post = (body) => postAsGame(GSI_PORT, withPushToken(body, token), { userAgent: USER_AGENT });
  });
  after(() => keyframe?.stop());

  it("writes the push configuration, with the data folder's token, into the game's gamestate_integration folder on enable", async () => {
    const config = await readFile(
      path.join(keyframe.temp.path, GAME_FOLDER, 'dota', 'cfg', 'gamestate_integration', GSI_CONFIG_FILE_NAME),
      'utf8',
    );
    const token = await readPushToken(path.join(keyframe.temp.path, 'data'));
    for (const line of [
      /"uri"\s+"http:\/\/127\.0\.0\.1:1341\/"/,
      /"player"\s+"1"/,
      /"map"\s+"1"/,
      /"provider"\s+"1"/,
      new RegExp(`"token"\\s+"${token}"`),
    ]) {
      expect(config).to.match(line);
    }
  });

  it("activates while Dota 2 runs during a recording, and bookmarks the local player's kill, death and assist", async () => {
    const game = await keyframe.startGame(path.join(GAME_FOLDER, 'bin', 'linuxsteamrt64', 'dota2'));
    await keyframe.recordWhileActive();

    // The recorded match as Dota 2 sent it (menu heartbeat → … → the horn, all at 0/0/0), spectator
    // payloads and a broken body: nothing to bookmark.
    const bodies = readLobbyToPostgameBodies();
    const [inProgress, postGame] = [bodies[10]!, bodies[11]!];
    for (const body of bodies.slice(0, 11)) expect(await post(body)).to.equal(200);
    for (const file of SPECTATOR_FILES) expect(await post(recordedData.text(file))).to.equal(200);
    expect(await postAsGame(GSI_PORT, '{"provider": ', { userAgent: USER_AGENT }), 'no token in a broken body').to.equal(403);

    // Then the recorded in-progress payload with the counters a kill, and later a death with an assist, would leave.
    const killPostedAt = performance.now();
    expect(await post(withCounters(inProgress, { kills: 1, deaths: 0, assists: 0 }))).to.equal(200);
    await keyframe.bookmarksReach(1, 10_000);
    const killVisibleMs = performance.now() - killPostedAt;
    await delay(SECONDS_BETWEEN_EVENTS * 1000 - killVisibleMs);
    expect(await post(withCounters(inProgress, { kills: 1, deaths: 1, assists: 1 }))).to.equal(200);
    expect(await post(withCounters(postGame, { kills: 1, deaths: 1, assists: 1 }))).to.equal(200);

    expect(await keyframe.bookmarksReach(3, 10_000)).to.deep.equal(['Kill', 'Death', 'Assist']);
    const state = keyframe.client.latest('State')!;
    const [kill, death, assist] = state.recording!.bookmarks.map((bookmark) => parseDuration(bookmark.time)!);
    expect(death! - kill!, 'bookmarks are as far apart as the pushes').to.be.closeTo(SECONDS_BETWEEN_EVENTS, 0.25);
    expect(assist).to.equal(death);
    expect(killVisibleMs, 'push → bookmark in State').to.be.below(1000);
    expect(keyframe.health(state)!.status).to.equal('active');

    const session = await keyframe.stopRecording();
    expect(session.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(['Kill', 'Death', 'Assist']);
    expect((await keyframe.savedBookmarks(session)).map((bookmark) => bookmark.type)).to.deep.equal(['Kill', 'Death', 'Assist']);
    await game.stop();
    await keyframe.client.until('State', (next) => keyframe.health(next)?.status === 'idle', 10_000);
    expect(keyframe.client.schemaViolations).to.deep.equal([]);
  });
});
