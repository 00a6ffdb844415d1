// The block-sandbox integration end to end: the real service detects a Java Edition game process,
// activates during a recording, and follows real files in a temp folder that GamePaths points to:
// old lines are not replayed, a half-written line waits for its newline, truncation, rotation to a
// new file, a GBK-encoded line and a Prism Launcher log that appears later all give the deaths they
// hold, which end in the finished session's metadata.
import 'reflect-metadata';
import { IntegrationService, StandInGame } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { appendFile, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

const PREFIX = '[16:37:42] [Render thread/INFO]: ';
const user = (name: string) => `${PREFIX}Setting user: ${name}\n`;
const chat = (text: string) => `${PREFIX}[System] [CHAT] ${text}\n`;
/** The game's Java runtime as the vanilla launcher installs it on Linux. */
const JAVA_RUNTIME = ['.minecraft', 'runtime', 'java-runtime-gamma', 'linux', 'java-runtime-gamma', 'bin', 'java'];

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('block-sandbox end to end', function () {
  this.timeout(120_000);
  let keyframe: IntegrationService;
  let vanillaLog: string;
  let prismLog: string;

  before(async function () {
    if (!StandInGame.supported) this.skip();
    keyframe = await IntegrationService.start({
      integration: 'blockSandbox',
      env: (temp) => ({
        KEYFRAME_GAME_HOME: path.join(temp.path, 'home'),
        KEYFRAME_ROAMING_APPDATA: path.join(temp.path, 'roaming'),
        KEYFRAME_LOCAL_APPDATA: path.join(temp.path, 'local'),
      }),
    });
    vanillaLog = path.join(keyframe.temp.path, 'home', '.minecraft', 'logs', 'latest.log');
    prismLog = path.join(keyframe.temp.path, 'local', 'PrismLauncher', 'instances', 'Modded', 'minecraft', 'logs', 'latest.log');
    await mkdir(path.dirname(vanillaLog), { recursive: true });
    await mkdir(path.dirname(path.dirname(prismLog)), { recursive: true }); // the instance exists, its log not yet
    // Written before the recording: the player's name, and a death that must never be bookmarked.
    await writeFile(vanillaLog, user('Steve') + chat('Steve was slain by Zombie'));
  });
  after(() => keyframe?.stop());

  const deathsInState = async (count: number) => {
    const started = performance.now();
    const types = await keyframe.bookmarksReach(count);
    return { types, waitedMs: performance.now() - started };
  };

  it("bookmarks the player's deaths from the followed logs, through every change of the file", async () => {
    // A stand-in for the game: any program at the path of the launcher's Java runtime.
    await keyframe.startGame(path.join('home', ...JAVA_RUNTIME));
    await keyframe.recordWhileActive();
    await delay(1500); // the feed takes the end of the file as its starting point

    // A death appended while recording (the name comes from the scan of the file's start).
    await appendFile(vanillaLog, chat('Alex was slain by Steve') + chat('Steve was shot by Skeleton'));
    const first = await deathsInState(1);
    expect(first.types).to.deep.equal(['Death']);

    // A half-written line is held until its newline.
    await appendFile(vanillaLog, `${PREFIX}[System] [CHAT] Steve was slain by Zomb`);
    await delay(1500);
    expect(keyframe.client.latest('State')!.recording!.bookmarks).to.have.length(1);
    await appendFile(vanillaLog, 'ie\n');
    await deathsInState(2);

    // The log is truncated and rewritten (shorter than before): read again from its start.
    await writeFile(vanillaLog, user('Steve') + chat('Steve drowned'));
    await deathsInState(3);

    // The game restarts: the log rotates to a new file, with another account.
    await rename(vanillaLog, path.join(path.dirname(vanillaLog), '2026-01-01-1.log'));
    await writeFile(vanillaLog, user('Alex') + chat('Steve drowned') + chat('Alex tried to swim in lava'));
    await deathsInState(4);

    // A Chinese Windows client writes GBK.
    await appendFile(
      vanillaLog,
      Buffer.concat([
        Buffer.from(`${PREFIX}[System] [CHAT] Alex`),
        Buffer.from([0xb1, 0xbb, 0xbd, 0xa9, 0xca, 0xac, 0xc9, 0xb1, 0xcb, 0xc0, 0xc1, 0xcb]),
        Buffer.from('\r\n'),
      ]),
    );
    await deathsInState(5);

    // A Prism Launcher instance starts writing its log: newer, so it is followed from its first line.
    await mkdir(path.dirname(prismLog), { recursive: true });
    await writeFile(prismLog, user('Modder') + chat('Alex drowned') + chat('Modder fell from a high place'));
    const last = await deathsInState(6);
    expect(last.types).to.deep.equal(['Death', 'Death', 'Death', 'Death', 'Death', 'Death']);

    // Latency of one appended line to its bookmark in State (the feed stats its file every 250 ms).
    await appendFile(prismLog, chat('Modder starved to death'));
    const timed = await deathsInState(7);
    console.log(`      death line appended → bookmark in State: ${timed.waitedMs.toFixed(0)} ms`);

    const session = await keyframe.stopRecording();
    expect(session.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(Array(7).fill('Death'));
    expect((await keyframe.savedBookmarks(session)).map((bookmark) => bookmark.type)).to.deep.equal(Array(7).fill('Death'));
    await keyframe.client.until('State', (state) => keyframe.health(state)?.status === 'idle', 10_000);
    expect(keyframe.client.schemaViolations).to.deep.equal([]);
  });
});
