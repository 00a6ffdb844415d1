// The fantasy-survival integration end to end: the service detects a stand-in for RuneScape:
// Dragonwilds, activates the integration during a recording, and the client log written into the
// local app-data folder (a temp folder, through KEYFRAME_LOCAL_APPDATA) gives Death bookmarks in
// `State` and then in the finished session's metadata, through the real log tail: a log that appears
// after activation, repeated lines, a half-written line, the log moved aside on a restart and bytes
// that are not UTF-8.
import 'reflect-metadata';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/test';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFile, copyFile, mkdir, rename, writeFile } from 'node:fs/promises';
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

describe('fantasy-survival end to end', function () {
  this.timeout(90_000);
  let temp: TempFolder;
  let service: ServiceProcess;
  let client: ProtocolClient;
  let game: ChildProcess | undefined;
  let clientLog: string;

  before(async () => {
    temp = await createTempFolder();
    const localAppData = path.join(temp.path, 'local');
    clientLog = path.join(localAppData, 'RSDragonwilds', 'Saved', 'Logs', 'RSDragonwilds.log');
    service = await ServiceProcess.start({
      dataFolder: path.join(temp.path, 'data'),
      env: { KEYFRAME_CAPTURE: 'synthetic', KEYFRAME_LOCAL_APPDATA: localAppData },
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

  /** Waits for the active recording to hold `count` bookmarks (generously: the test machine may be busy). */
  async function deathsReach(count: number): Promise<void> {
    await client.until('State', (state) => (state.recording?.bookmarks.length ?? 0) >= count, 10_000);
  }

  /** Gives the tail time to deliver anything, then checks that the count has not moved. */
  async function deathsStay(count: number): Promise<void> {
    await delay(1_500);
    expect(client.latest('State')!.recording!.bookmarks).to.have.length(count);
  }

  it('bookmarks the deaths in the client log the game writes during a recording', async () => {
    // A stand-in for the game: any program whose executable is named like the catalog's.
    const executable = path.join(temp.path, 'Win64', 'RSDragonwilds-Win64-Shipping.exe');
    await mkdir(path.dirname(executable), { recursive: true });
    await copyFile('/bin/sleep', executable);
    game = spawn(executable, ['120'], { stdio: 'ignore' });
    await client.next('State', (state) => /is running/.test(state.integrations.fantasySurvival?.message ?? ''), 30_000);

    client.send('StartRecording');
    await client.next('State', (state) => state.recording !== null, 30_000);
    await client.next('State', (state) => state.integrations.fantasySurvival?.status === 'active', 15_000);

    // The log does not exist yet; the game writes it a moment later, a death among its first lines.
    await delay(1_500);
    await mkdir(path.dirname(clientLog), { recursive: true });
    await writeFile(clientLog, 'Log file open, 09/28/26 22:03:30\n' + logLine('LogNet: Join succeeded: Dragonslayer') + DEATH());
    await deathsReach(1);

    // The same death logged again is not a second one; after the respawn a death counts again.
    await appendFile(clientLog, DEATH() + modeChange('DIM_Dead', 'DIM_Dead'));
    await deathsStay(1);
    await appendFile(clientLog, RESPAWN() + DEATH());
    await deathsReach(2);

    // A line written in two pieces counts once it is complete.
    const death = DEATH();
    await appendFile(clientLog, RESPAWN() + death.slice(0, -8));
    await deathsStay(2);
    await appendFile(clientLog, death.slice(-8));
    await deathsReach(3);

    // The game restarts while dead: the old log is moved aside and a new one begins.
    await rename(clientLog, clientLog.replace(/\.log$/, '-backup-2026.09.28-22.10.00.log'));
    await writeFile(clientLog, 'Log file open, 09/28/26 22:10:05\n' + DEATH());
    await deathsReach(4);

    // A Latin-1 character name and binary garbage around a respawn and a death.
    await appendFile(clientLog, Buffer.concat([
      Buffer.from(logLine('LogNet: Join succeeded: J\u00fcrgen'), 'latin1'),
      Buffer.from([0x00, 0xff, 0xfe, 0x0a]),
      Buffer.from(RESPAWN() + DEATH()),
    ]));
    await deathsReach(5);
    expect(client.latest('State')!.integrations.fantasySurvival!.status).to.equal('active');

    client.send('StopRecording');
    const stopped = await client.next('State', (state) => state.recording === null && state.content.length > 0, 30_000);
    expect(stopped.content[0]!.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(Array(5).fill('Death'));
    await client.until('State', (state) => state.integrations.fantasySurvival?.status === 'idle', 10_000);
    expect(client.schemaViolations).to.deep.equal([]);
  });
});
