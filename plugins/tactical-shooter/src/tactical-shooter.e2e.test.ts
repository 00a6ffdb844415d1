// The tactical-shooter integration end to end: the service finds the game in a Steam library,
// writes its push config, activates during a recording while a stand-in for cs2 runs, and real
// payloads POSTed to port 1340 become bookmarks in `State` and then in the finished session's metadata.
import 'reflect-metadata';
import { IntegrationService, postAsGame, readPushToken, StandInGame, withPushToken } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { GSI_CONFIG_FILE_NAME } from './gsi-config.js';

import { recordedData } from './recorded-payloads.js';

/** The manifest's httpPush port. */
const GSI_PORT = 1340;

const GAME_FOLDER = path.join('steam', 'steamapps', 'common', 'Counter-Strike Global Offensive', 'game');

/** Lines 1–14 hold a kill (line 12); lines 44–54 a new match with two deaths (lines 47 and 53). */
const PUSHED_LINES = [...range(1, 14), ...range(44, 54)];

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}

describe('tactical-shooter end to end', function () {
  this.timeout(90_000);
  let keyframe: IntegrationService;

  before(async function () {
    recordedData.skipIfAbsent(this);
    if (!StandInGame.supported) this.skip();
    keyframe = await IntegrationService.start({
      integration: 'tacticalShooter',
      // The game's csgo folder is there when the service enables the integration and writes its config.
      prepare: async (temp) => {
        await mkdir(path.join(temp.path, GAME_FOLDER, 'csgo'), { recursive: true });
      },
      env: (temp) => ({ KEYFRAME_STEAM_LIBRARIES: path.join(temp.path, 'steam') }),
    });
  });
  after(() => keyframe?.stop());

  it("writes the push configuration, with the data folder's token, into the game folder on enable", async () => {
    const config = await readFile(path.join(keyframe.temp.path, GAME_FOLDER, 'csgo', 'cfg', GSI_CONFIG_FILE_NAME), 'utf8');
    for (const line of [
      /"uri"\s+"http:\/\/localhost:1340\/"/,
      /"timeout"\s+"5\.0"/,
      /"buffer"\s+"0\.1"/,
      /"throttle"\s+"0\.2"/,
      /"heartbeat"\s+"2\.0"/,
      /"player_match_stats"\s+"1"/,
    ]) {
      expect(config).to.match(line);
    }
    expect(config).to.match(
      new RegExp(`"auth"\\s*\\{\\s*"token"\\s+"${await readPushToken(path.join(keyframe.temp.path, 'data'))}"\\s*\\}`),
    );
  });

  it('activates while the game runs during a recording, and bookmarks the payloads the game pushes', async () => {
    await keyframe.startGame(path.join(GAME_FOLDER, 'bin', 'linuxsteamrt64', 'cs2'));
    await keyframe.recordWhileActive();

    // The game sends the token of the config the service wrote, in place of the recorded one.
    const token = await readPushToken(path.join(keyframe.temp.path, 'data'));
    const bodies = recordedData.text('cs2-playing-session.bodies.jsonl').split('\n');
    for (const line of PUSHED_LINES) {
      expect(await postAsGame(GSI_PORT, withPushToken(bodies[line - 1]!, token))).to.equal(200);
    }
    expect(await postAsGame(GSI_PORT, '{"broken": ')).to.equal(403);

    expect(await keyframe.bookmarksReach(3)).to.deep.equal(['Kill', 'Death', 'Death']);
    expect(keyframe.client.events.some((event) => event.method === 'BookmarkCreated')).to.equal(true);

    const session = await keyframe.stopRecording();
    expect(session.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(['Kill', 'Death', 'Death']);
    expect((await keyframe.savedBookmarks(session)).map((bookmark) => bookmark.type)).to.deep.equal(['Kill', 'Death', 'Death']);
    await keyframe.client.until('State', (state) => keyframe.health(state)?.status === 'idle', 10_000);
    expect(keyframe.client.schemaViolations).to.deep.equal([]);
  });
});
