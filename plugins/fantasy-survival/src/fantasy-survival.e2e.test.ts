// The fantasy-survival integration end to end: the service detects a stand-in for RuneScape:
// Dragonwilds, activates the integration during a recording, and the client log written into the
// local app-data folder (a temp folder, through KEYFRAME_LOCAL_APPDATA) gives Death bookmarks in
// `State` and then in the finished session's metadata, through the real log tail: a log that appears
// after activation, repeated lines, a half-written line, the log moved aside on a restart and bytes
// that are not UTF-8.
import 'reflect-metadata';
import { IntegrationService, StandInGame } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { appendFile, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A line in the Unreal Engine format, stamped now. */
function logLine(text: string): string {
  const now = new Date();
  const stamp = now.toISOString().replace(/^(\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)\.(\d+)Z$/, '$1.$2.$3-$4.$5.$6:$7');
  return `[${stamp}][  1]${text}\n`;
}
const modeChange = (from: string, to: string) => logLine(`LogDominionPlayerController: Changing input mode from [${from}] to [${to}]`);
const DEATH = () => modeChange('DIM_Gameplay', 'DIM_Dead');
const RESPAWN = () => modeChange('DIM_Dead', 'DIM_Gameplay');

// The live path of its feed kind runs in `npm test` through block-sandbox's (a followed log) end-to-end suite; this one runs
// under `npm run test:long` (KEYFRAME_LONG_TESTS=1). Its tapes (tapes.test.ts) stay in `npm test`.
(process.env.KEYFRAME_LONG_TESTS === '1' ? describe : describe.skip)('fantasy-survival end to end (long)', function () {
  this.timeout(90_000);
  let keyframe: IntegrationService;
  let clientLog: string;

  before(async function () {
    if (!StandInGame.supported) this.skip();
    keyframe = await IntegrationService.start({
      integration: 'fantasySurvival',
      env: (temp) => ({ KEYFRAME_LOCAL_APPDATA: path.join(temp.path, 'local') }),
    });
    clientLog = path.join(keyframe.temp.path, 'local', 'RSDragonwilds', 'Saved', 'Logs', 'RSDragonwilds.log');
  });
  after(() => keyframe?.stop());

  /** Gives the tail time to deliver anything, then checks that the count has not moved. */
  async function deathsStay(count: number): Promise<void> {
    await delay(1_500);
    expect(keyframe.client.latest('State')!.recording!.bookmarks).to.have.length(count);
  }

  it('bookmarks the deaths in the client log the game writes during a recording', async () => {
    await keyframe.startGame(path.join('Win64', 'RSDragonwilds-Win64-Shipping.exe'));
    await keyframe.recordWhileActive();

    // The log does not exist yet; the game writes it a moment later, a death among its first lines.
    await delay(1_500);
    await mkdir(path.dirname(clientLog), { recursive: true });
    await writeFile(clientLog, 'Log file open, 09/28/26 22:03:30\n' + logLine('LogNet: Join succeeded: Dragonslayer') + DEATH());
    await keyframe.bookmarksReach(1);

    // The same death logged again is not a second one; after the respawn a death counts again.
    await appendFile(clientLog, DEATH() + modeChange('DIM_Dead', 'DIM_Dead'));
    await deathsStay(1);
    await appendFile(clientLog, RESPAWN() + DEATH());
    await keyframe.bookmarksReach(2);

    // A line written in two pieces counts once it is complete.
    const death = DEATH();
    await appendFile(clientLog, RESPAWN() + death.slice(0, -8));
    await deathsStay(2);
    await appendFile(clientLog, death.slice(-8));
    await keyframe.bookmarksReach(3);

    // The game restarts while dead: the old log is moved aside and a new one begins.
    await rename(clientLog, clientLog.replace(/\.log$/, '-backup-2026.09.28-22.10.00.log'));
    await writeFile(clientLog, 'Log file open, 09/28/26 22:10:05\n' + DEATH());
    await keyframe.bookmarksReach(4);

    // A Latin-1 character name and binary garbage around a respawn and a death.
    await appendFile(
      clientLog,
      Buffer.concat([
        Buffer.from(logLine('LogNet: Join succeeded: J\u00fcrgen'), 'latin1'),
        Buffer.from([0x00, 0xff, 0xfe, 0x0a]),
        Buffer.from(RESPAWN() + DEATH()),
      ]),
    );
    expect(await keyframe.bookmarksReach(5)).to.deep.equal(Array(5).fill('Death'));
    expect(keyframe.health()!.status).to.equal('active');

    const session = await keyframe.stopRecording();
    expect(session.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(Array(5).fill('Death'));
    expect((await keyframe.savedBookmarks(session)).map((bookmark) => bookmark.type)).to.deep.equal(Array(5).fill('Death'));
    await keyframe.client.until('State', (state) => keyframe.health(state)?.status === 'idle', 10_000);
    expect(keyframe.client.schemaViolations).to.deep.equal([]);
  });
});
