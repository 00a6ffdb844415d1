// arena-game-a end to end: the real service detects "League of Legends.exe", activates during a
// synthetic recording and polls a stand-in for the game's Live Client Data API (HTTPS on
// 127.0.0.1:2999, a certificate made for this run). The stand-in serves the recorded answer of a real
// match and plays five more of the player's fights on a game clock; their bookmarks land in `State`
// at the fights' game times and end in the finished session's metadata.
import 'reflect-metadata';
import { parseDuration } from '@keyframe/core/protocol';
import { canMakeCertificates, IntegrationService, selfSignedCertificate, StandInGame } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { createServer, type Server } from 'node:https';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { PLAYING_FILE, recordedData } from './recorded-game-data.js';

const PLAYER = 'mikehpoo';

interface RecordedAnswer {
  allPlayers: Array<{ summonerName: string; scores: Record<string, number> }>;
  events: { Events: Array<Record<string, unknown>> };
  gameData: { gameTime: number };
}

/** The player's fights after the recorded answer, in seconds after the game resumes. */
const FIGHTS = [
  { after: 1.0, type: 'Kill', killer: PLAYER, victim: 'Japudi', assisters: [] },
  { after: 2.0, type: 'Death', killer: 'GhostBig', victim: PLAYER, assisters: ['KubiK651'] },
  { after: 2.6, type: 'Assist', killer: 'wezznco', victim: 'MoRice651', assisters: [PLAYER] },
  { after: 3.4, type: 'Kill', killer: PLAYER, victim: 'GrantReaper', assisters: ['piperx'] },
  { after: 3.5, type: 'Kill', killer: PLAYER, victim: 'KubiK651', assisters: [] },
] as const;

const NOT_IN_A_GAME = { status: 404, body: '{"errorCode":"RESOURCE_NOT_FOUND","httpStatus":404,"message":"not in a game"}' };

/**
 * The stand-in for League of Legends' local API: `404` while loading, then the recorded answer with
 * the game clock running and FIGHTS added as they happen. Can answer one poll slowly or cut off.
 */
class FakeLiveClientData {
  readonly pollStarts: number[] = [];
  mostPollsAtOnce = 0;
  malformedAnswers = 0;
  #inFlight = 0;
  #resumedAt: number | undefined;
  #slowNextMs = 0;
  #cutNext = false;

  private constructor(
    private readonly server: Server,
    private readonly recorded: RecordedAnswer,
  ) {}

  static async start(key: string, cert: string, recorded: RecordedAnswer): Promise<FakeLiveClientData> {
    const server = createServer({ key, cert });
    const game = new FakeLiveClientData(server, recorded);
    server.on('request', (request, response) => {
      if (request.url !== '/liveclientdata/allgamedata') return void response.writeHead(404).end();
      void game.answer().then(({ status, body }) => response.writeHead(status, { 'Content-Type': 'application/json' }).end(body));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(2999, '127.0.0.1', resolve);
    });
    return game;
  }

  /** The match has loaded: the game clock runs from the recorded answer's game time. */
  resume(): number {
    this.#resumedAt = Date.now();
    return this.#resumedAt;
  }

  answerNextSlowly(ms: number): void {
    this.#slowNextMs = ms;
  }
  cutNextAnswer(): void {
    this.#cutNext = true;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(): Promise<{ status: number; body: string }> {
    this.pollStarts.push(performance.now());
    this.mostPollsAtOnce = Math.max(this.mostPollsAtOnce, ++this.#inFlight);
    try {
      const slow = this.#slowNextMs;
      this.#slowNextMs = 0;
      if (slow > 0) await delay(slow);
      if (this.#resumedAt === undefined) return NOT_IN_A_GAME;
      const body = JSON.stringify(this.stateAt((Date.now() - this.#resumedAt) / 1000));
      if (!this.#cutNext) return { status: 200, body };
      this.#cutNext = false;
      this.malformedAnswers++;
      return { status: 200, body: body.slice(0, body.length / 2) };
    } finally {
      this.#inFlight--;
    }
  }

  private stateAt(elapsed: number): RecordedAnswer {
    const resumedGameTime = this.recorded.gameData.gameTime;
    const happened = FIGHTS.filter((fight) => fight.after <= elapsed);
    const count = (type: string) => happened.filter((fight) => fight.type === type).length;
    let nextId = this.recorded.events.Events.length;
    const events = happened.map((fight) => ({
      EventID: nextId++,
      EventName: 'ChampionKill',
      EventTime: resumedGameTime + fight.after,
      KillerName: fight.killer,
      VictimName: fight.victim,
      Assisters: fight.assisters,
    }));
    const allPlayers = this.recorded.allPlayers.map((player) =>
      player.summonerName !== PLAYER
        ? player
        : {
            ...player,
            scores: {
              ...player.scores,
              kills: player.scores.kills! + count('Kill'),
              deaths: player.scores.deaths! + count('Death'),
              assists: player.scores.assists! + count('Assist'),
            },
          },
    );
    return {
      ...this.recorded,
      allPlayers,
      events: { Events: [...this.recorded.events.Events, ...events] },
      gameData: { ...this.recorded.gameData, gameTime: resumedGameTime + elapsed },
    };
  }
}

describe('arena-game-a end to end', function () {
  this.timeout(90_000);
  let keyframe: IntegrationService | undefined;
  let fakeGame: FakeLiveClientData | undefined;

  before(async function () {
    recordedData.skipIfAbsent(this);
    if (!StandInGame.supported) {
      this.test!.parent!.title += ' (skipped: the stand-in game process needs Linux or macOS)';
      this.skip();
    }
    if (!(await canMakeCertificates())) {
      this.test!.parent!.title += ' (skipped: the openssl command, needed for a self-signed certificate, is not installed)';
      this.skip();
    }
    keyframe = await IntegrationService.start({ integration: 'arenaGameA' });
    const { key, cert } = await selfSignedCertificate(keyframe.temp.path);
    fakeGame = await FakeLiveClientData.start(key, cert, JSON.parse(recordedData.text(PLAYING_FILE)) as RecordedAnswer);
  });
  after(async () => {
    await keyframe?.stop();
    await fakeGame?.close();
  });

  it("bookmarks the player's fights at their game times while the game is polled without overlap", async () => {
    const game = fakeGame!;
    const service = keyframe!;
    await service.startGame(path.join('Riot Games', 'League of Legends', 'Game', 'League of Legends.exe'));
    const recording = (await service.recordWhileActive()).recording!;

    // Loading screen: the game answers 404; that is idle, not a problem.
    const pollsBefore = game.pollStarts.length;
    const waitStarted = performance.now();
    await delay(1000);
    // Polled every 250 ms, counted over the time that really passed (a busy machine stretches the wait).
    const intervals = Math.floor((performance.now() - waitStarted) / 250);
    expect(game.pollStarts.length - pollsBefore).to.be.within(intervals - 1, intervals + 1);
    expect(service.health()!.status).to.equal('active');

    const resumedAt = game.resume();
    const resumedPoll = game.pollStarts.length;
    await delay(1400);
    game.answerNextSlowly(700); // a slow answer between the kill and the death
    await delay(900);
    game.cutNextAnswer(); // a broken answer between the death and the assist

    await service.bookmarksReach(FIGHTS.length, 10_000);
    const bookmarks = service.client.latest('State')!.recording!.bookmarks;
    expect(bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(FIGHTS.map((fight) => fight.type));
    // Where each fight happened in the recording, by the wall clock of the stand-in game.
    const recordingStart = Date.parse(recording.startTime);
    const errors = bookmarks.map(
      (bookmark, index) => parseDuration(bookmark.time)! - (resumedAt + FIGHTS[index]!.after * 1000 - recordingStart) / 1000,
    );
    for (const error of errors) expect(Math.abs(error)).to.be.below(0.5);

    // Every request the stand-in received, from resuming until the last bookmark: one poll at a time, and never more than the interval allows.
    const starts = game.pollStarts.slice(resumedPoll);
    const gaps = starts.slice(1).map((start, index) => start - starts[index]!);
    const matchMs = starts.at(-1)! - starts[0]!;
    expect(game.mostPollsAtOnce, 'polls in flight at once').to.equal(1);
    expect(starts.length, `polls in ${matchMs.toFixed(0)} ms`).to.be.at.most(Math.floor(matchMs / 250) + 2);
    expect(Math.max(...gaps), 'the slow answer delays the next poll').to.be.at.least(650);
    expect(game.malformedAnswers).to.equal(1);
    const sorted = [...gaps].sort((first, second) => first - second);
    console.log(
      `      arena-game-a e2e: ${starts.length} polls in ${matchMs.toFixed(0)} ms, gaps ${sorted[0]!.toFixed(0)}–${sorted.at(-1)!.toFixed(0)} ms ` +
        `(median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms), at most ${game.mostPollsAtOnce} in flight; ` +
        `bookmark − fight: ${errors.map((error) => error.toFixed(3)).join(', ')} s`,
    );

    const session = await service.stopRecording();
    expect(session.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(FIGHTS.map((fight) => fight.type));
    // …and in the session's metadata sidecar on disk.
    expect((await service.savedBookmarks(session)).map((bookmark) => [bookmark.type, bookmark.time])).to.deep.equal(
      bookmarks.map((bookmark) => [bookmark.type, bookmark.time]),
    );
    await service.client.until('State', (state) => service.health(state)?.status === 'idle', 10_000);
    expect(service.client.schemaViolations).to.deep.equal([]);
  });
});
