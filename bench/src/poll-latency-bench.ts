// Event-to-bookmark latency of a polled integration: arena-game-a polls League of Legends' Live
// Client Data API (HTTPS on 127.0.0.1:2999, fixed by the game) every 250 ms. A stand-in for the game
// serves the recorded answer of a real match; each measured kill enters its answers at a random
// moment, timed until the `State` that carries its bookmark, while the service records (synthetic
// capture). Baseline: a bare poller at the same interval, fetching the same stand-in and forwarding a
// frame to a bare `ws` client when the kill count rises. Both are bound by the poll interval: on
// average half an interval passes before the next poll sees the kill.
import { IntegrationService, selfSignedCertificate, StandInGame } from '@keyframe/integration-testkit';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { Agent, createServer, request, type Server } from 'node:https';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { forwardingPair } from './bare-ws.js';
import { median, msSince, type Figure } from './harness.js';

const KILLS = 20;
const POLL_INTERVAL_MS = 250;
const PLAYER = 'mikehpoo';
/** The real answer recorded in a match played as PLAYER (see SOURCES.md there), kept outside the repository. */
const RECORDED_ANSWER = fileURLToPath(
  new URL('../../../shared/game-data/arena-game-a/lol-allgamedata-playing-lux-28min.json', import.meta.url),
);
const ALL_GAME_DATA = '/liveclientdata/allgamedata';

interface RecordedAnswer {
  allPlayers: Array<{ summonerName: string; scores: Record<string, number> }>;
  events: { Events: Array<Record<string, unknown>> };
  gameData: { gameTime: number };
}

/** The game's API: the recorded answer on a running game clock, plus the kills added with `kill`. */
class StandInLiveClientData {
  private readonly startedAt = Date.now();
  private readonly kills: number[] = [];

  private constructor(
    private readonly server: Server,
    private readonly recorded: RecordedAnswer,
  ) {}

  static async start(folder: string): Promise<StandInLiveClientData> {
    const server = createServer(await selfSignedCertificate(folder));
    const game = new StandInLiveClientData(server, JSON.parse(await readFile(RECORDED_ANSWER, 'utf8')) as RecordedAnswer);
    server.on('request', (incoming, response) => {
      if (incoming.url !== ALL_GAME_DATA) return void response.writeHead(404).end();
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(game.answer()));
    });
    server.listen(2999, '127.0.0.1');
    await once(server, 'listening');
    return game;
  }

  /** The player kills someone now: every answer from now on counts it. Returns the kills added so far. */
  kill(): number {
    this.kills.push(this.gameTime());
    return this.kills.length;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private gameTime(): number {
    return this.recorded.gameData.gameTime + (Date.now() - this.startedAt) / 1000;
  }

  private answer(): RecordedAnswer {
    let nextId = this.recorded.events.Events.length;
    const events = this.kills.map((time) => ({
      EventID: nextId++,
      EventName: 'ChampionKill',
      EventTime: time,
      KillerName: PLAYER,
      VictimName: 'Japudi',
      Assisters: [],
    }));
    return {
      ...this.recorded,
      allPlayers: this.recorded.allPlayers.map((player) =>
        player.summonerName !== PLAYER
          ? player
          : { ...player, scores: { ...player.scores, kills: player.scores.kills! + this.kills.length } },
      ),
      events: { Events: [...this.recorded.events.Events, ...events] },
      gameData: { ...this.recorded.gameData, gameTime: this.gameTime() },
    };
  }
}

/** Waits a random part of a poll interval and more, so kills fall at every phase of the polling. */
const betweenKills = () => delay(POLL_INTERVAL_MS * (2 + Math.random()));

export async function benchPollLatency(): Promise<Figure> {
  if (!StandInGame.supported) throw new Error('the poll latency bench needs Linux or macOS (stand-in game process)');
  const keyframe = await IntegrationService.start({ integration: 'arenaGameA' });
  let game: StandInLiveClientData | undefined;
  try {
    game = await StandInLiveClientData.start(keyframe.temp.path);
    const latencies = await serviceLatencies(keyframe, game);
    await keyframe.stop();
    const baseline = await barePollerLatency(game);
    const serviceMs = median(latencies);
    return {
      name: 'poll (arenaGameA, HTTPS every 250 ms) event to bookmark in State',
      medianMs: serviceMs,
      baseline: 'bare poller, same interval, to ws',
      baselineMedianMs: baseline,
      ratio: serviceMs / baseline,
      runs: KILLS,
      note: `bound by the ${POLL_INTERVAL_MS} ms poll interval (half of it on average); p90 ${[...latencies].sort((a, b) => a - b)[Math.floor(KILLS * 0.9)]!.toFixed(0)} ms, while recording 720p30`,
    };
  } catch (error) {
    await keyframe.stop();
    throw error;
  } finally {
    await game?.close();
  }
}

async function serviceLatencies(keyframe: IntegrationService, game: StandInLiveClientData): Promise<number[]> {
  await keyframe.startGame(path.join('Riot Games', 'League of Legends', 'Game', 'League of Legends.exe'));
  await keyframe.recordWhileActive();
  await delay(1000); // the first answers are the match's baseline
  const latencies: number[] = [];
  for (let index = 0; index < KILLS; index++) {
    await betweenKills();
    const start = process.hrtime.bigint();
    const count = game.kill();
    await keyframe.bookmarksReach(count, 5000);
    latencies.push(msSince(start));
  }
  return latencies;
}

/** Polls the stand-in every POLL_INTERVAL_MS (one request at a time) and forwards a frame when the kill count rises. */
async function barePollerLatency(game: StandInLiveClientData): Promise<number> {
  const pair = await forwardingPair();
  const agent = new Agent({ keepAlive: true, rejectUnauthorized: false });
  const fetchAnswer = () =>
    new Promise<RecordedAnswer>((resolve, reject) => {
      request({ host: '127.0.0.1', port: 2999, path: ALL_GAME_DATA, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString()) as RecordedAnswer));
      })
        .on('error', reject)
        .end();
    });
  let polling = true;
  let lastKills: number | undefined;
  const poller = (async () => {
    while (polling) {
      const startedAt = performance.now();
      const answer = await fetchAnswer();
      const kills = answer.allPlayers.find((player) => player.summonerName === PLAYER)!.scores.kills!;
      if (lastKills !== undefined && kills > lastKills) pair.forward(JSON.stringify({ method: 'State', content: { kills } }));
      lastKills = kills;
      await delay(Math.max(0, startedAt + POLL_INTERVAL_MS - performance.now()));
    }
  })();
  await delay(1000);
  const latencies: number[] = [];
  for (let index = 0; index < KILLS; index++) {
    await betweenKills();
    const start = process.hrtime.bigint();
    const arrived = pair.nextFrame();
    game.kill();
    await arrived;
    latencies.push(msSince(start));
  }
  polling = false;
  await poller;
  agent.destroy();
  pair.close();
  return median(latencies);
}
