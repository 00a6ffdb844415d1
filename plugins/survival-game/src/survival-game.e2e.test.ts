// The survival-game integration end to end: the service detects a stand-in for RustClient.exe,
// activates the integration during a recording, and lines written to output_log.txt beside that
// executable become Death bookmarks in `State` and then in the finished session's metadata, through
// the real log tail: old lines, a half-written line, a restart that truncates the log, a replaced
// log file and bytes that are not UTF-8.
import 'reflect-metadata';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/test';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFile, copyFile, mkdir, readFile, rename, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RECORDED_LOG, skipWithoutRecordedLog } from './recorded-log.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const logLine = (message: string) => `${new Date().toISOString()}|0x2a7c|${message}\n`;

describe('survival-game end to end', function () {
  this.timeout(90_000);
  let temp: TempFolder;
  let service: ServiceProcess;
  let client: ProtocolClient;
  let game: ChildProcess | undefined;
  let outputLog: string;

  before(async function () {
    skipWithoutRecordedLog(this);
    temp = await createTempFolder();
    const install = path.join(temp.path, 'Rust');
    outputLog = path.join(install, 'output_log.txt');
    await mkdir(install, { recursive: true });
    // Written before the game is seen: these lines, their death included, must never be bookmarked.
    await writeFile(outputLog, logLine('Connecting: 127.0.0.1:28015 (Raknet)') + logLine('You died: killed by Scientist'));
    service = await ServiceProcess.start({
      dataFolder: path.join(temp.path, 'data'),
      env: { KEYFRAME_CAPTURE: 'synthetic', KEYFRAME_STEAM_LIBRARIES: path.join(temp.path, 'no-steam') },
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

  it('bookmarks the deaths written to output_log.txt beside the running game during a recording', async () => {
    // A stand-in for the game: any program whose executable is named like the catalog's, in the install folder.
    const executable = path.join(path.dirname(outputLog), 'RustClient.exe');
    await copyFile('/bin/sleep', executable);
    game = spawn(executable, ['120'], { stdio: 'ignore' });
    await client.next('State', (state) => /is running/.test(state.integrations.survivalGame?.message ?? ''), 30_000);

    client.send('StartRecording');
    await client.next('State', (state) => state.recording !== null, 30_000);
    await client.next('State', (state) => state.integrations.survivalGame?.status === 'active', 15_000);
    await delay(1_500); // the tail has taken the end of the file as its starting point

    // The recorded client lines: two of them are deaths.
    await appendFile(outputLog, await readFile(RECORDED_LOG));
    await deathsReach(2);

    // A line written in two pieces counts once it is complete.
    await appendFile(outputLog, '2026-03-21T05:40:00.000Z|0x2a7c|You di');
    await delay(1_500);
    expect(client.latest('State')!.recording!.bookmarks).to.have.length(2);
    await appendFile(outputLog, 'ed: killed by Bear\n');
    await deathsReach(3);

    // The game restarts and starts the log over.
    await truncate(outputLog, 0);
    await delay(1_000);
    await appendFile(outputLog, logLine('Connecting: 127.0.0.1:28015 (Raknet)') + logLine('You died: killed by Suicide'));
    await deathsReach(4);

    // The log is replaced by a new file.
    await rename(outputLog, `${outputLog}.old`);
    await writeFile(outputLog, logLine('You died: killed by Wolf'));
    await deathsReach(5);

    // A Latin-1 name and a line of binary garbage: the death still counts, the garbage does not.
    await appendFile(outputLog, Buffer.concat([
      Buffer.from([0x00, 0xff, 0xfe, 0x0a]),
      Buffer.from(logLine('You died: killed by J\u00fcrgen (76561198000000001)'), 'latin1'),
    ]));
    await deathsReach(6);

    client.send('StopRecording');
    const stopped = await client.next('State', (state) => state.recording === null && state.content.length > 0, 30_000);
    expect(stopped.content[0]!.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(Array(6).fill('Death'));
    await client.until('State', (state) => state.integrations.survivalGame?.status === 'idle', 10_000);
    expect(client.schemaViolations).to.deep.equal([]);
  });
});
