// War Thunder end to end: the service detects the game (a stand-in named `aces`), activates the
// integration during a recording, and a fake game web server on 127.0.0.1:8111 serves the real German
// battle (../shared/game-data) as the game would, 40 times faster; CassualTux's kills and deaths become
// bookmarks in `State` and then in the finished session's metadata.
import 'reflect-metadata';
import { ProtocolClient, ServiceProcess, createTempFolder, type TempFolder } from '@keyframe/test';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { loggedInSession, writeClog } from './clog-fixtures.js';
import { GERMAN_MATCH, GERMAN_PLAYER, readRecordedDamage, skipWithoutGameData, type RecordedDamage } from './recorded-hudmsg.js';
import { HUD_PORT } from './vehicle-combat-integration.js';

/** Battle seconds per wall second. */
const SPEED = 40;
/** Recording starts here: the messages so far (none of them the player's kills) are only a baseline. */
const JOINED_AT_SECOND = 250;

/** Serves `/hudmsg` like the game: what appeared so far with an id above `lastDmg`. */
class FakeHudServer {
  private playingSince: number | undefined;
  private battleSecond = JOINED_AT_SECOND;
  private clock: NodeJS.Timeout | undefined;
  readonly requests: string[] = [];
  private constructor(private readonly server: Server, private readonly damage: readonly RecordedDamage[]) {}

  static async start(damage: readonly RecordedDamage[]): Promise<FakeHudServer> {
    let fake: FakeHudServer | undefined;
    const server = createServer((request, response) => fake!.answer(request.url ?? '/', response));
    fake = new FakeHudServer(server, damage);
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(HUD_PORT, '127.0.0.1', resolve));
    return fake;
  }

  /** Lets the battle run from now on. */
  play(): void {
    const startedAt = Date.now();
    this.playingSince = startedAt;
    this.clock = setInterval(() => { this.battleSecond = JOINED_AT_SECOND + ((Date.now() - startedAt) / 1000) * SPEED; }, 5);
  }

  /** When (wall clock, ms) the message with this id appeared in the game. */
  appearedAt(id: number): number {
    const { time } = this.damage.find((entry) => entry.id === id)!;
    return this.playingSince! + ((time + 0.5 - JOINED_AT_SECOND) / SPEED) * 1000;
  }

  private answer(url: string, response: import('node:http').ServerResponse): void {
    const request = new URL(url, `http://127.0.0.1:${HUD_PORT}`);
    if (request.pathname !== '/hudmsg') {
      response.writeHead(404).end();
      return;
    }
    this.requests.push(request.search);
    const lastDmg = Number(request.searchParams.get('lastDmg') ?? 0);
    const appeared = this.damage.filter(({ id, time }) => id > lastDmg && time + 0.5 <= this.battleSecond);
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ events: [], damage: appeared }));
  }

  async stop(): Promise<void> {
    clearInterval(this.clock);
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** `hh:mm:ss.fffffff` → seconds. */
function secondsOf(duration: string): number {
  const [hours, minutes, seconds] = duration.replace(/^\d+\./, '').split(':').map(Number);
  return hours! * 3600 + minutes! * 60 + seconds!;
}

describe('vehicle-combat end to end', function () {
  this.timeout(90_000);
  let temp: TempFolder;
  let service: ServiceProcess;
  let client: ProtocolClient;
  let hud: FakeHudServer;
  let game: ChildProcess | undefined;
  let gameFolder: string;

  before(async function () {
    skipWithoutGameData(this);
    temp = await createTempFolder();
    gameFolder = path.join(temp.path, 'games', 'War Thunder');
    await writeClog(path.join(gameFolder, '.game_logs'), '2026_01_01_12_00_00__4242.clog', loggedInSession(GERMAN_PLAYER));
    hud = await FakeHudServer.start(readRecordedDamage(GERMAN_MATCH));
    service = await ServiceProcess.start({
      dataFolder: path.join(temp.path, 'data'),
      env: {
        KEYFRAME_CAPTURE: 'synthetic',
        KEYFRAME_LOCAL_APPDATA: path.join(temp.path, 'local'),
        KEYFRAME_STEAM_LIBRARIES: path.join(temp.path, 'steam'),
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
    await hud?.stop();
    await temp?.remove();
  });

  it('bookmarks the local player\'s kills and deaths from the game\'s HUD messages, and keeps them in the session', async () => {
    // A stand-in for the game where War Thunder keeps it, so the client log is found beside it.
    const executable = path.join(gameFolder, 'linux64', 'aces');
    await mkdir(path.dirname(executable), { recursive: true });
    await copyFile('/bin/sleep', executable);
    game = spawn(executable, ['120'], { stdio: 'ignore' });

    // The service records a detected game by itself. Other games on this machine (other suites' stand-ins)
    // may be recorded first: only a recording of War Thunder counts.
    const isOurs = (state: { recording: { game: string } | null }) => state.recording?.game === 'War Thunder';
    const recording = await client.next('State', isOurs, 30_000);
    const active = await client.until('State', (state) => isOurs(state) && state.integrations.vehicleCombat?.status === 'active', 15_000);
    expect(active.integrations.vehicleCombat!.message).to.match(/War Thunder/);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the first answer (ids 65–117) becomes the baseline
    hud.play();

    const withBookmarks = await client.until('State', (state) => (state.recording?.bookmarks.length ?? 0) >= 4, 20_000);
    const bookmarks = withBookmarks.recording!.bookmarks;
    expect(withBookmarks.recording!.startTime).to.equal(recording.recording!.startTime);
    expect(bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(['Kill', 'Death', 'Death', 'Kill']);
    // Each within one poll interval (500 ms) of when its message appeared in the game (ids 104, 105, 161, 181).
    const startedAt = new Date(recording.recording!.startTime).getTime();
    const errors = [104, 105, 161, 181].map((id, index) => startedAt + secondsOf(bookmarks[index]!.time) * 1000 - hud.appearedAt(id));
    console.log(`      bookmark time minus when its message appeared (ms): ${errors.map((error) => error.toFixed(0)).join(', ')}`);
    for (const error of errors) expect(Math.abs(error)).to.be.below(500);
    // Asked from the newest id seen. (Other services running on this machine at the same time may see the
    // stand-in game too and poll this server, so the order of all requests proves nothing.)
    expect(hud.requests[0]).to.equal('?lastEvt=0&lastDmg=0');
    expect(hud.requests.some((search) => Number(new URLSearchParams(search).get('lastDmg')) >= 161)).to.equal(true);

    client.send('StopRecording');
    const stopped = await client.next('State', (state) => state.recording === null && state.content.length > 0, 30_000);
    expect(stopped.content[0]!.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(['Kill', 'Death', 'Death', 'Kill']);
    await client.until('State', (state) => state.integrations.vehicleCombat?.status !== 'active', 10_000);
    expect(client.schemaViolations).to.deep.equal([]);
  });
});
