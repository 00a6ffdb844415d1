// War Thunder end to end: the service detects the game (a stand-in named `aces`), activates the
// integration during a recording, and a fake game web server on 127.0.0.1:8111 serves the real German
// battle (../shared/game-data) as the game would, 40 times faster; CassualTux's kills and deaths become
// bookmarks in `State` and then in the finished session's metadata.
import 'reflect-metadata';
import { parseDuration } from '@keyframe/core/protocol';
import { IntegrationService, StandInGame } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { createServer, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { loggedInSession, writeClog } from './clog-fixtures.js';
import { GERMAN_MATCH, GERMAN_PLAYER, readRecordedDamage, type RecordedDamage, recordedData } from './recorded-hudmsg.js';
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
  private constructor(
    private readonly server: Server,
    private readonly damage: readonly RecordedDamage[],
  ) {}

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
    this.clock = setInterval(() => {
      this.battleSecond = JOINED_AT_SECOND + ((Date.now() - startedAt) / 1000) * SPEED;
    }, 5);
  }

  /** When (wall clock, ms) the message with this id appeared in the game. */
  appearedAt(id: number): number {
    const { time } = this.damage.find((entry) => entry.id === id)!;
    return this.playingSince! + ((time + 0.5 - JOINED_AT_SECOND) / SPEED) * 1000;
  }

  private answer(url: string, response: ServerResponse): void {
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

// The live path of its feed kind runs in `npm test` through arena-game-a's (a polled game API) end-to-end suite; this one runs
// under `npm run test:long` (KEYFRAME_LONG_TESTS=1). Its tapes (tapes.test.ts) stay in `npm test`.
(process.env.KEYFRAME_LONG_TESTS === '1' ? describe : describe.skip)('vehicle-combat end to end (long)', function () {
  this.timeout(90_000);
  let keyframe: IntegrationService | undefined;
  let hud: FakeHudServer | undefined;
  const gameFolder = path.join('games', 'War Thunder');

  before(async function () {
    recordedData.skipIfAbsent(this);
    if (!StandInGame.supported) {
      this.test!.parent!.title += ' (skipped: the stand-in game process needs Linux or macOS)';
      this.skip();
    }
    keyframe = await IntegrationService.start({
      integration: 'vehicleCombat',
      env: (temp) => ({ KEYFRAME_LOCAL_APPDATA: path.join(temp.path, 'local'), KEYFRAME_STEAM_LIBRARIES: path.join(temp.path, 'steam') }),
    });
    // Where War Thunder keeps its client log: beside the game, so it is found from the running executable.
    await writeClog(
      path.join(keyframe.temp.path, gameFolder, '.game_logs'),
      '2026_01_01_12_00_00__4242.clog',
      loggedInSession(GERMAN_PLAYER),
    );
    hud = await FakeHudServer.start(readRecordedDamage(GERMAN_MATCH));
  });
  after(async () => {
    await keyframe?.stop();
    await hud?.stop();
  });

  it("bookmarks the local player's kills and deaths from the game's HUD messages, and keeps them in the session", async () => {
    const service = keyframe!;
    const game = hud!;
    await service.startGame(path.join(gameFolder, 'linux64', 'aces'));
    const active = await service.recordWhileActive();
    expect(service.health(active)!.message).to.match(/War Thunder/);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the first answer (ids 65–117) becomes the baseline
    game.play();

    const types = await service.bookmarksReach(4, 20_000);
    const recording = service.client.latest('State')!.recording!;
    expect(recording.startTime).to.equal(active.recording!.startTime);
    expect(types).to.deep.equal(['Kill', 'Death', 'Death', 'Kill']);
    // Each within one poll interval (500 ms) of when its message appeared in the game (ids 104, 105, 161, 181).
    const startedAt = new Date(recording.startTime).getTime();
    const errors = [104, 105, 161, 181].map(
      (id, index) => startedAt + parseDuration(recording.bookmarks[index]!.time)! * 1000 - game.appearedAt(id),
    );
    console.log(`      bookmark time minus when its message appeared (ms): ${errors.map((error) => error.toFixed(0)).join(', ')}`);
    for (const error of errors) expect(Math.abs(error)).to.be.below(500);
    // Every request this server received is this service's: asked first from the start, then from the newest id seen.
    const askedFrom = game.requests.map((search) => Number(new URLSearchParams(search).get('lastDmg')));
    expect(game.requests[0]).to.equal('?lastEvt=0&lastDmg=0');
    expect(askedFrom, 'lastDmg never goes back').to.deep.equal([...askedFrom].sort((first, second) => first - second));
    expect(askedFrom.at(-1)).to.be.at.least(161);

    const session = await service.stopRecording();
    expect(session.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(['Kill', 'Death', 'Death', 'Kill']);
    expect((await service.savedBookmarks(session)).map((bookmark) => bookmark.type)).to.deep.equal(['Kill', 'Death', 'Death', 'Kill']);
    await service.client.until('State', (state) => service.health(state)?.status !== 'active', 10_000);
    expect(service.client.schemaViolations).to.deep.equal([]);
  });
});
