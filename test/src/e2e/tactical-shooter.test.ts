// The tactical-shooter integration end to end: the service detects the game, writes its push
// config, activates during a recording, and real payloads POSTed to port 1340 become bookmarks in
// `State` and then in the finished session's metadata.
import 'reflect-metadata';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProtocolClient } from '../kit/protocol-client.js';
import { ServiceProcess } from '../kit/service-process.js';
import { createTempFolder, type TempFolder } from '../kit/temp-folder.js';

const GAME_DATA = fileURLToPath(new URL('../../../../shared/game-data/tactical-shooter/', import.meta.url));
const BODIES = path.join(GAME_DATA, 'cs2-playing-session.bodies.jsonl');
const GAME_FOLDER = ['steamapps', 'common', 'Counter-Strike Global Offensive', 'game'];

/** Lines 1–14 hold a kill (line 12); lines 44–54 a new match with two deaths (lines 47 and 53). */
const PUSHED_LINES = [...range(1, 14), ...range(44, 54)];

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}

async function post(body: string): Promise<number> {
  const response = await fetch('http://127.0.0.1:1340/', { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'User-Agent': 'Valve/Steam HTTP Client 1.0 (730)' } });
  return response.status;
}

describe('tactical-shooter end to end', function () {
  this.timeout(90_000);
  let temp: TempFolder;
  let service: ServiceProcess;
  let client: ProtocolClient;
  let game: ChildProcess | undefined;

  before(async function () {
    if (!existsSync(BODIES)) {
      this.test!.parent!.title += ' (skipped: ../shared/game-data/tactical-shooter is absent)';
      this.skip();
    }
    temp = await createTempFolder();
    const steam = path.join(temp.path, 'steam');
    await mkdir(path.join(steam, ...GAME_FOLDER, 'csgo'), { recursive: true });
    service = await ServiceProcess.start({
      dataFolder: path.join(temp.path, 'data'),
      env: { KEYFRAME_CAPTURE: 'synthetic', KEYFRAME_STEAM_LIBRARIES: steam },
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

  it('writes the push configuration into the game folder on enable', async () => {
    const config = await readFile(path.join(temp.path, 'steam', ...GAME_FOLDER, 'csgo', 'cfg', 'gamestate_integration_keyframe.cfg'), 'utf8');
    for (const line of [/"uri"\s+"http:\/\/localhost:1340\/"/, /"timeout"\s+"5\.0"/, /"buffer"\s+"0\.1"/, /"throttle"\s+"0\.2"/, /"heartbeat"\s+"2\.0"/, /"player_match_stats"\s+"1"/]) {
      expect(config).to.match(line);
    }
  });

  it('activates while the game runs during a recording, and bookmarks the payloads the game pushes', async () => {
    // A stand-in for the game: any program whose executable is named like the catalog's.
    const executable = path.join(temp.path, 'bin', 'cs2');
    await mkdir(path.dirname(executable), { recursive: true });
    await copyFile('/bin/sleep', executable);
    game = spawn(executable, ['120'], { stdio: 'ignore' });
    const detected = await client.next('State', (state) => /is running/.test(state.integrations.tacticalShooter?.message ?? ''), 10_000);
    expect(detected.integrations.tacticalShooter!.status).to.equal('idle');

    client.send('StartRecording');
    await client.next('State', (state) => state.recording !== null, 30_000);
    await client.next('State', (state) => state.integrations.tacticalShooter?.status === 'active', 15_000);

    const bodies = (await readFile(BODIES, 'utf8')).split('\n');
    for (const line of PUSHED_LINES) {
      expect(await post(bodies[line - 1]!)).to.equal(200);
    }
    expect(await post('{"broken": ')).to.equal(200);

    const withBookmarks = await client.until('State', (state) => (state.recording?.bookmarks.length ?? 0) >= 3, 10_000);
    expect(withBookmarks.recording!.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(['Kill', 'Death', 'Death']);
    expect(client.events.some((event) => event.method === 'BookmarkCreated')).to.equal(true);

    client.send('StopRecording');
    const stopped = await client.next('State', (state) => state.recording === null && state.content.length > 0, 30_000);
    expect(stopped.content[0]!.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(['Kill', 'Death', 'Death']);
    await client.until('State', (state) => state.integrations.tacticalShooter?.status === 'idle', 10_000);
    expect(client.schemaViolations).to.deep.equal([]);
  });
});
