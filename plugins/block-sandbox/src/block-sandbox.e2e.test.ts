// The block-sandbox integration end to end: the real service detects a Java Edition game process,
// activates during a recording, and follows real files in a temp folder that GamePaths points to:
// old lines are not replayed, a half-written line waits for its newline, truncation, rotation to a
// new file, a GBK-encoded line and a Prism Launcher log that appears later all give the deaths they
// hold, which end in the finished session's metadata.
import 'reflect-metadata';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/test';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFile, copyFile, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

const PREFIX = '[16:37:42] [Render thread/INFO]: ';
const user = (name: string) => `${PREFIX}Setting user: ${name}\n`;
const chat = (text: string) => `${PREFIX}[System] [CHAT] ${text}\n`;
/** The game's Java runtime as the vanilla launcher installs it on Linux. */
const JAVA_RUNTIME = ['.minecraft', 'runtime', 'java-runtime-gamma', 'linux', 'java-runtime-gamma', 'bin', 'java'];

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('block-sandbox end to end', function () {
  this.timeout(120_000);
  let temp: TempFolder;
  let service: ServiceProcess;
  let client: ProtocolClient;
  let game: ChildProcess | undefined;
  let vanillaLog: string;
  let prismLog: string;

  before(async function () {
    if (process.platform !== 'linux') {
      this.test!.parent!.title += ' (skipped: the stand-in game process needs Linux /proc paths)';
      this.skip();
    }
    temp = await createTempFolder();
    vanillaLog = path.join(temp.path, 'home', '.minecraft', 'logs', 'latest.log');
    prismLog = path.join(temp.path, 'local', 'PrismLauncher', 'instances', 'Modded', 'minecraft', 'logs', 'latest.log');
    await mkdir(path.dirname(vanillaLog), { recursive: true });
    await mkdir(path.dirname(path.dirname(prismLog)), { recursive: true }); // the instance exists, its log not yet
    // Written before the recording: the player's name, and a death that must never be bookmarked.
    await writeFile(vanillaLog, user('Steve') + chat('Steve was slain by Zombie'));
    service = await ServiceProcess.start({
      dataFolder: path.join(temp.path, 'data'),
      env: {
        KEYFRAME_CAPTURE: 'synthetic',
        KEYFRAME_GAME_HOME: path.join(temp.path, 'home'),
        KEYFRAME_ROAMING_APPDATA: path.join(temp.path, 'roaming'),
        KEYFRAME_LOCAL_APPDATA: path.join(temp.path, 'local'),
      },
    });
    client = await ProtocolClient.connect(service.url);
    await client.handshake();
    client.send('UpdateSettings', { resolution: '720p', frameRate: 30, contentFolder: path.join(temp.path, 'videos') });
    await client.next('Settings');
  });
  after(async () => {
    game?.kill('SIGKILL');
    await client?.close();
    await service?.stop();
    await temp?.remove();
  });

  const deathsInState = async (count: number) => {
    const started = performance.now();
    const state = await client.until('State', (content) => (content.recording?.bookmarks.length ?? 0) >= count, 10_000);
    return { types: state.recording!.bookmarks.map((bookmark) => bookmark.type), waitedMs: performance.now() - started };
  };

  it('bookmarks the player\'s deaths from the followed logs, through every change of the file', async () => {
    // A stand-in for the game: any program at the path of the launcher's Java runtime.
    const java = path.join(temp.path, 'home', ...JAVA_RUNTIME);
    await mkdir(path.dirname(java), { recursive: true });
    await copyFile('/bin/sleep', java);
    game = spawn(java, ['120'], { stdio: 'ignore' });
    await client.next('State', (state) => /is running/.test(state.integrations.blockSandbox?.message ?? ''), 10_000);

    client.send('StartRecording');
    await client.next('State', (state) => state.recording !== null, 30_000);
    await client.next('State', (state) => state.integrations.blockSandbox?.status === 'active', 15_000);
    await delay(1500); // the feed takes the end of the file as its starting point

    // A death appended while recording (the name comes from the scan of the file's start).
    await appendFile(vanillaLog, chat('Alex was slain by Steve') + chat('Steve was shot by Skeleton'));
    const first = await deathsInState(1);
    expect(first.types).to.deep.equal(['Death']);

    // A half-written line is held until its newline.
    await appendFile(vanillaLog, `${PREFIX}[System] [CHAT] Steve was slain by Zomb`);
    await delay(1500);
    expect(client.latest('State')!.recording!.bookmarks).to.have.length(1);
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
    await appendFile(vanillaLog, Buffer.concat([Buffer.from(`${PREFIX}[System] [CHAT] Alex`), Buffer.from([0xb1, 0xbb, 0xbd, 0xa9, 0xca, 0xac, 0xc9, 0xb1, 0xcb, 0xc0, 0xc1, 0xcb]), Buffer.from('\r\n')]));
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

    client.send('StopRecording');
    const stopped = await client.next('State', (state) => state.recording === null && state.content.length > 0, 30_000);
    expect(stopped.content[0]!.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(Array(7).fill('Death'));
    await client.until('State', (state) => state.integrations.blockSandbox?.status === 'idle', 10_000);
    expect(client.schemaViolations).to.deep.equal([]);
  });
});
