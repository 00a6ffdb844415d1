// The arena-game-b integration end to end: the service detects Dota 2, writes its push config,
// activates during a (synthetic) recording, and game pushes POSTed to port 1341 become bookmarks in
// `State` and then in the finished session's metadata.
import 'reflect-metadata';
import { parseDuration } from '@keyframe/core/protocol';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/test';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { GSI_CONFIG_FILE_NAME } from './gsi-config.js';
import {
  hasGameData, GAME_DATA_FOLDER, readGameDataText, readLobbyToPostgameBodies, SPECTATOR_FILES, withCounters,
} from './recorded-payloads.js';

const GAME_FOLDER = ['steamapps', 'common', 'dota 2 beta', 'game'];
const SECONDS_BETWEEN_EVENTS = 1.5;

async function post(body: string): Promise<number> {
  const response = await fetch('http://127.0.0.1:1341/', {
    method: 'POST', body, headers: { 'Content-Type': 'application/json', 'User-Agent': 'Valve/Steam HTTP Client 1.0 (570)' },
  });
  return response.status;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('arena-game-b end to end', function () {
  this.timeout(90_000);
  let temp: TempFolder;
  let service: ServiceProcess;
  let client: ProtocolClient;
  let game: ChildProcess | undefined;

  before(async function () {
    if (!hasGameData()) {
      this.test!.parent!.title += ` (skipped: recorded Dota 2 payloads not found at ${GAME_DATA_FOLDER})`;
      this.skip();
    }
    temp = await createTempFolder();
    const steam = path.join(temp.path, 'steam');
    await mkdir(path.join(steam, ...GAME_FOLDER, 'dota'), { recursive: true });
    service = await ServiceProcess.start({
      dataFolder: path.join(temp.path, 'data'),
      env: { KEYFRAME_CAPTURE: 'synthetic', KEYFRAME_STEAM_LIBRARIES: steam },
    });
    client = await ProtocolClient.connect(service.url);
    const { settings } = await client.handshake();
    await isolateFromOtherTests(Object.keys(settings.gameIntegrations), path.join(temp.path, 'videos'));
  });
  after(async () => {
    game?.kill('SIGKILL');
    await client?.close();
    await service?.stop();
    await temp?.remove();
  });

  /**
   * Game detection is machine-wide, and other packages' end-to-end tests may run meanwhile. Their
   * stand-in games must not start integrations here (only this one may bookmark), and ours must not
   * start arena-game-b in their services (it would take port 1341): the stand-in gets a name only
   * this service knows, as Dota 2 through a user game entry. Integrations cannot be switched during
   * a recording, so this waits for a gap between the automatic recordings of their stand-ins.
   */
  async function isolateFromOtherTests(keys: readonly string[], contentFolder: string): Promise<void> {
    const gameIntegrations = Object.fromEntries(keys.filter((key) => key !== 'arenaGameB').map((key) => [key, { enabled: false }]));
    const games = [{ name: 'Dota 2', paths: [standInGame()], record: false }]; // recorded when the test says
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      await client.until('State', (state) => state.recording === null, Math.max(deadline - Date.now(), 1));
      client.send('UpdateSettings', { resolution: '720p', frameRate: 30, contentFolder, gameIntegrations, games });
      const applied = (settings: { games: Array<{ paths: string[] }> }) => settings.games.some((game) => game.paths.includes(standInGame()));
      // No echo means `NotAllowed`: a recording of another test's stand-in started in between.
      if (await client.until('Settings', applied, 2000).then(() => true, () => false)) return;
    }
    throw new Error('could not change the settings within 60 s: recordings of other games kept running');
  }

  const standInGame = () => path.join(temp.path, 'bin', 'keyframe-e2e-dota2');

  it('writes the push configuration into the game\'s gamestate_integration folder on enable', async () => {
    const config = await readFile(path.join(temp.path, 'steam', ...GAME_FOLDER, 'dota', 'cfg', 'gamestate_integration', GSI_CONFIG_FILE_NAME), 'utf8');
    for (const line of [/"uri"\s+"http:\/\/127\.0\.0\.1:1341\/"/, /"player"\s+"1"/, /"map"\s+"1"/, /"provider"\s+"1"/]) {
      expect(config).to.match(line);
    }
  });

  it('activates while Dota 2 runs during a recording, and bookmarks the local player\'s kill, death and assist', async () => {
    // A stand-in for the game (see isolateFromOtherTests for its name).
    const executable = standInGame();
    await mkdir(path.dirname(executable), { recursive: true });
    await copyFile('/bin/sleep', executable);
    game = spawn(executable, ['120'], { stdio: 'ignore' });
    const detected = await client.next('State', (state) => /is running/.test(state.integrations.arenaGameB?.message ?? ''), 10_000);
    expect(detected.integrations.arenaGameB!.status).to.equal('idle');

    client.send('StartRecording');
    // `until`: activation can come in the same State as the recording, and nothing else may follow it.
    await client.until('State', (state) => state.recording !== null && state.integrations.arenaGameB?.status === 'active', 30_000);

    // The recorded match as Dota 2 sent it (menu heartbeat → … → the horn, all at 0/0/0), spectator
    // payloads and a broken body: nothing to bookmark.
    const bodies = readLobbyToPostgameBodies();
    const [inProgress, postGame] = [bodies[10]!, bodies[11]!];
    for (const body of bodies.slice(0, 11)) expect(await post(body)).to.equal(200);
    for (const file of SPECTATOR_FILES) expect(await post(readGameDataText(file))).to.equal(200);
    expect(await post('{"provider": ')).to.equal(200);

    // Then the recorded in-progress payload with the counters a kill, and later a death with an assist, would leave.
    const killPostedAt = performance.now();
    expect(await post(withCounters(inProgress, { kills: 1, deaths: 0, assists: 0 }))).to.equal(200);
    await client.until('State', (state) => (state.recording?.bookmarks.length ?? 0) >= 1, 10_000);
    const killVisibleMs = performance.now() - killPostedAt;
    await delay(SECONDS_BETWEEN_EVENTS * 1000 - killVisibleMs);
    expect(await post(withCounters(inProgress, { kills: 1, deaths: 1, assists: 1 }))).to.equal(200);
    expect(await post(withCounters(postGame, { kills: 1, deaths: 1, assists: 1 }))).to.equal(200);

    const withBookmarks = await client.until('State', (state) => (state.recording?.bookmarks.length ?? 0) >= 3, 10_000);
    const bookmarks = withBookmarks.recording!.bookmarks;
    expect(bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(['Kill', 'Death', 'Assist']);
    const [kill, death, assist] = bookmarks.map((bookmark) => parseDuration(bookmark.time)!);
    expect(death! - kill!, 'bookmarks are as far apart as the pushes').to.be.closeTo(SECONDS_BETWEEN_EVENTS, 0.25);
    expect(assist).to.equal(death);
    expect(killVisibleMs, 'push → bookmark in State').to.be.below(1000);
    expect(withBookmarks.integrations.arenaGameB!.status).to.equal('active');

    // The recording may be the automatic one of the stand-in or of another package's stand-in game.
    const sessionFile = withBookmarks.recording!.filePath!.replace(/\\/g, '/');
    client.send('StopRecording');
    const stopped = await client.next('State', (state) => state.content.some((item) => item.filePath === sessionFile), 30_000);
    const session = stopped.content.find((item) => item.filePath === sessionFile)!;
    expect(session.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(['Kill', 'Death', 'Assist']);
    game.kill('SIGKILL');
    await client.until('State', (state) => state.integrations.arenaGameB?.status === 'idle', 10_000);
    expect(client.schemaViolations).to.deep.equal([]);
  });
});
