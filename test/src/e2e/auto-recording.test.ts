// Automatic recording end to end: the service sees a game start in the process list, records it,
// and stops when it exits; manual recordings and `record: false` games are left alone. Also the
// game catalog (`GameList`) and `SelectGameExecutable` with a path.
import 'reflect-metadata';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { State } from '@keyframe/core/protocol';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

/** The detector polls every 2 s; a recording shows after ffmpeg's first frame. */
const DETECTION_BUDGET_MS = 5000;

const TEST_GAME = { name: 'Test Game', paths: ['keyframe-test-game'], record: true };
/**
 * The detector sees every process on the machine: a `cs2` stand-in of a test run beside this one
 * would be recorded here. This suite's own stand-ins have names no other suite uses.
 */
const SHOOTER_NOT_RECORDED = { name: 'Counter-Strike 2', paths: [], record: false };
/** The game of the probe plugin below: its integration's health in State shows what the detector sees. */
const PROBE_GAME = 'Keyframe Probe Game';
const PROBE_EXECUTABLE = 'keyframe-probe-game.exe';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('automatic recording', function () {
  this.timeout(90_000);
  let temp: TempFolder;
  let service: ServiceProcess;
  let client: ProtocolClient;
  const games: ChildProcess[] = [];

  /** A stand-in for a game: /bin/sleep copied under the executable's name. */
  async function executable(name: string): Promise<string> {
    const file = path.join(temp.path, 'bin', name);
    await mkdir(path.dirname(file), { recursive: true });
    await copyFile('/bin/sleep', file);
    return file;
  }
  function launch(file: string): ChildProcess {
    const game = spawn(file, ['120'], { stdio: 'ignore' });
    games.push(game);
    return game;
  }
  async function kill(game: ChildProcess): Promise<void> {
    if (game.exitCode === null && game.signalCode === null) {
      const exited = new Promise((resolve) => game.once('exit', resolve));
      game.kill('SIGKILL');
      await exited;
    }
  }
  const idle = (state: State) => state.recording === null && state.preRecording === null;

  before(async () => {
    temp = await createTempFolder();
    // A plugin whose game is in no other list, so GameList shows that manifests reach the catalog.
    // In a folder named in KEYFRAME_PLUGIN_DIRS, as a plugin developer does: trusted without an approval.
    const plugin = path.join(temp.path, 'dev-plugins', 'keyframe-plugin-catalog-probe');
    await mkdir(plugin, { recursive: true });
    await writeFile(
      path.join(plugin, 'package.json'),
      JSON.stringify({
        name: 'keyframe-plugin-catalog-probe',
        version: '1.0.0',
        type: 'module',
        main: 'index.js',
        peerDependencies: { '@keyframe/core': '0.1.0' },
        keyframe: {
          apiVersion: 1,
          integration: {
            key: 'catalogProbe',
            displayName: 'Catalog probe',
            events: ['Kill'],
            games: [{ name: PROBE_GAME, executables: [PROBE_EXECUTABLE] }],
            feeds: [],
          },
        },
      }),
    );
    await writeFile(path.join(plugin, 'index.js'), 'export default class CatalogProbe { async activate() {} async deactivate() {} }\n');
    await mkdir(path.join(temp.path, 'steam'), { recursive: true });

    service = await ServiceProcess.start({
      dataFolder: path.join(temp.path, 'data'),
      legacyPort: 'off',
      gameProcessRoot: temp.path,
      env: {
        KEYFRAME_CAPTURE: 'synthetic',
        KEYFRAME_STEAM_LIBRARIES: path.join(temp.path, 'steam'),
        KEYFRAME_PLUGIN_DIRS: path.join(temp.path, 'dev-plugins'),
      },
    });
    client = await ProtocolClient.connect(service.url);
    await client.handshake();
    client.send('UpdateSettings', {
      resolution: '720p',
      frameRate: 30,
      recordingMode: 'Session',
      contentFolder: path.join(temp.path, 'videos'),
      games: [TEST_GAME, SHOOTER_NOT_RECORDED],
    });
    await client.next('Settings');
  });
  after(async () => {
    for (const game of games) await kill(game);
    await client?.close();
    await service?.stop();
    await temp?.remove();
  });
  afterEach(async () => {
    for (const game of games.splice(0)) await kill(game);
  });

  it('lists bundled, integration and user games in GameList, merged by name', async () => {
    client.skipReceived();
    client.send('NewConnection');
    const list = await client.next('GameList');
    const named = (name: string) => list.filter((game) => game.name.toLowerCase() === name.toLowerCase());

    expect(named('Dota 2'), 'bundled').to.have.length(1);
    expect(list.length).to.be.greaterThanOrEqual(40);
    expect(named('Counter-Strike 2'), 'bundled and the tactical-shooter manifest, once').to.have.length(1);
    expect(named('Counter-Strike 2')[0]!.executables).to.include.members(['cs2.exe', 'cs2']);
    expect(named(PROBE_GAME), 'manifest only').to.deep.equal([
      { name: PROBE_GAME, executables: [PROBE_EXECUTABLE], gameDatabaseId: null, icon: null },
    ]);
    expect(named('Test Game'), "the user's").to.deep.equal([
      { name: 'Test Game', executables: ['keyframe-test-game'], gameDatabaseId: null, icon: null },
    ]);
    expect(client.schemaViolations).to.deep.equal([]);
  });

  it('answers SelectGameExecutable with a FilePath: the catalog name when known, else the file name', async () => {
    const testGame = await executable('keyframe-test-game');
    client.send('SelectGameExecutable', { FilePath: testGame });
    expect(await client.next('SelectedGameExecutable')).to.deep.equal({ name: 'Test Game', paths: [testGame] });

    const unknown = await executable('Unheard Of.x86_64');
    client.send('SelectGameExecutable', { FilePath: unknown });
    expect(await client.next('SelectedGameExecutable')).to.deep.equal({ name: 'Unheard Of', paths: [unknown] });

    client.send('SelectGameExecutable', { FilePath: path.join(temp.path, 'bin', 'missing.exe') });
    const rejected = await client.next('CommandRejected');
    expect(rejected).to.deep.include({ method: 'SelectGameExecutable', code: 'InvalidParameters' });
  });

  it('records a game from its launch until it exits', async () => {
    const file = await executable('keyframe-test-game');
    await client.until('State', idle);
    client.skipReceived();
    const launchedAt = Date.now();
    const game = launch(file);

    const preparing = await client.next('State', (state) => state.preRecording !== null || state.recording !== null, 10_000);
    const preRecordingAfterMs = Date.now() - launchedAt;
    expect(preparing.preRecording, 'preRecording comes first').to.deep.include({ game: 'Test Game', pid: game.pid!, exe: file });
    const recording = (await client.until('State', (state) => state.recording !== null, 30_000)).recording!;
    const recordingAfterMs = Date.now() - launchedAt;
    expect(recording).to.deep.include({ game: 'Test Game', pid: game.pid!, exePath: file, fileName: 'keyframe-test-game' });
    expect(recordingAfterMs, 'recording within the detection budget').to.be.lessThan(DETECTION_BUDGET_MS);

    await sleep(1500);
    const killedAt = Date.now();
    await kill(game);
    const stopped = await client.next('State', (state) => idle(state) && state.content.some((item) => item.game === 'Test Game'), 30_000);
    const savedAfterMs = Date.now() - killedAt;
    const session = stopped.content.find((item) => item.game === 'Test Game')!;
    expect(session.type).to.equal('Session');
    console.log(
      `      detection: preRecording ${preRecordingAfterMs} ms and recording ${recordingAfterMs} ms after launch; stopped and saved ${savedAfterMs} ms after exit`,
    );
    expect(client.schemaViolations).to.deep.equal([]);
  });

  it('never stops a manual recording when a game exits', async () => {
    await client.until('State', idle, 30_000);
    client.send('StartRecording');
    await client.until('State', (state) => state.recording?.game === 'Manual Recording', 30_000);
    const game = launch(await executable(PROBE_EXECUTABLE));
    await client.next('State', (state) => state.integrations.catalogProbe?.status === 'active', 10_000);
    await kill(game);
    const after = await client.next('State', (state) => state.integrations.catalogProbe?.status === 'idle', 10_000);
    expect(after.recording?.game, 'still recording').to.equal('Manual Recording');
    await sleep(2500);
    expect(client.latest('State')!.recording?.game).to.equal('Manual Recording');

    client.send('StopRecording');
    await client.next('State', idle, 30_000);
  });

  it('does not record a game marked record: false, though its integration sees it', async () => {
    client.send('UpdateSettings', {
      games: [TEST_GAME, SHOOTER_NOT_RECORDED, { name: PROBE_GAME.toUpperCase(), paths: [], record: false }],
    });
    await client.next('Settings');
    await client.until('State', idle, 30_000);
    const from = client.events.length;
    const game = launch(await executable(PROBE_EXECUTABLE));
    await client.next('State', (state) => /is running/.test(state.integrations.catalogProbe?.message ?? ''), 10_000);
    await sleep(2500);
    const since = client.events
      .slice(from)
      .filter((event) => event.method === 'State')
      .map((event) => event.content as State);
    expect(since.every(idle), 'no preRecording, no recording').to.equal(true);
    await kill(game);
  });
});
