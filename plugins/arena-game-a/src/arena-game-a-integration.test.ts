import 'reflect-metadata';
import type { PollInput } from '@keyframe/core';
import { IntegrationTestBed } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { ALL_GAME_DATA_URL, ArenaGameAIntegration } from './arena-game-a-integration.js';
import { SILENCE_LIMIT_MS, SPECTATING_MESSAGE, silenceMessage } from './feed-health.js';
import { PLAYING_FILE, recordedData, SPECTATING_FILE } from './recorded-game-data.js';

const GAME = { name: 'League of Legends' };
const START = Date.parse('2026-01-01T12:00:00Z');
const REFUSED: PollInput = { error: 'connect ECONNREFUSED 127.0.0.1:2999' };

/** A small answer for the local player "Mira" at `gameTime`, with the given scores and ChampionKills. */
function answer(gameTime: number, kills: number, championKills: Array<[number, number]> = []): PollInput {
  return {
    status: 200,
    body: JSON.stringify({
      activePlayer: { riotId: 'Mira#EUW', riotIdGameName: 'Mira', summonerName: 'Mira#EUW' },
      allPlayers: [
        {
          riotId: 'Mira#EUW',
          riotIdGameName: 'Mira',
          summonerName: 'Mira#EUW',
          championName: 'Lux',
          scores: { kills, deaths: 0, assists: 0 },
        },
      ],
      events: {
        Events: championKills.map(([id, time]) => ({
          EventID: id,
          EventName: 'ChampionKill',
          EventTime: time,
          KillerName: 'Mira',
          VictimName: 'Tovan',
          Assisters: [],
        })),
      },
      gameData: { gameMode: 'CLASSIC', gameTime },
    }),
  };
}

describe('ArenaGameAIntegration', () => {
  let bed: IntegrationTestBed;
  const resolve = () => bed.resolve(ArenaGameAIntegration);

  /** Delivers one poll the way the host does, at `atMs` after the start. */
  async function poll(input: PollInput, atMs: number): Promise<void> {
    bed.clock.set(new Date(START + atMs));
    await bed.feeds.latest('poll').deliver(input);
  }

  /** What the health entry showed, change by change (the integration reports after every poll). */
  beforeEach(() => {
    bed = new IntegrationTestBed({ key: 'arenaGameA' });
  });

  it("polls the game's allgamedata every 250 ms over HTTPS, accepting its self-signed certificate", async () => {
    const integration = resolve();
    await integration.activate(GAME);
    expect(bed.feeds.opened.map(({ id, options }) => ({ id, options }))).to.deep.equal([
      {
        id: 'allgamedata',
        options: { url: 'https://127.0.0.1:2999/liveclientdata/allgamedata', intervalMs: 250, acceptSelfSignedCertificate: true },
      },
    ]);
    expect(ALL_GAME_DATA_URL).to.equal('https://127.0.0.1:2999/liveclientdata/allgamedata');
    await integration.deactivate();
  });

  it('bookmarks a kill at its event time, not at the poll that revealed it', async () => {
    const integration = resolve();
    await integration.activate(GAME);
    await poll(answer(100, 0), 1000);
    await poll(answer(101.5, 1, [[7, 100.3]]), 2500);
    expect(bed.bookmarks.added).to.deep.equal([{ type: 'Kill', at: new Date(START + 1300) }]);
    await integration.deactivate();
  });

  it('bookmarks nothing from the real answer 28 minutes into a match (joined late), then counts from there', async function () {
    recordedData.skipIfAbsent(this);
    const integration = resolve();
    await integration.activate(GAME);
    const recorded = recordedData.text(PLAYING_FILE);
    await poll({ status: 200, body: recorded }, 0);
    await poll({ status: 200, body: recorded }, 250);
    expect(bed.bookmarks.added).to.deep.equal([]);
    expect(bed.health.changes).to.deep.equal([undefined]);
    const later = JSON.parse(recorded) as {
      allPlayers: Array<{ summonerName: string; scores: { kills: number } }>;
      gameData: { gameTime: number };
    };
    later.allPlayers.find((player) => player.summonerName === 'mikehpoo')!.scores.kills += 1;
    later.gameData.gameTime += 0.5;
    await poll({ status: 200, body: JSON.stringify(later) }, 750);
    expect(bed.bookmarks.added).to.deep.equal([{ type: 'Kill', at: new Date(START + 750) }]);
    await integration.deactivate();
  });

  it('bookmarks nothing while spectating (real zh-CN answer) and says why', async function () {
    recordedData.skipIfAbsent(this);
    const integration = resolve();
    await integration.activate(GAME);
    await poll({ status: 200, body: recordedData.text(SPECTATING_FILE) }, 0);
    await poll({ status: 200, body: recordedData.text(SPECTATING_FILE) }, 250);
    expect(bed.bookmarks.added).to.deep.equal([]);
    expect(bed.health.changes).to.deep.equal([SPECTATING_MESSAGE]);
    await integration.deactivate();
  });

  it('treats a game that does not answer as idle until the silence lasts, then says what to do', async () => {
    const integration = resolve();
    await integration.activate(GAME);
    for (let ms = 0; ms < SILENCE_LIMIT_MS; ms += 250)
      await poll(ms % 1000 === 0 ? REFUSED : { status: 404, body: '{"errorCode":"RESOURCE_NOT_FOUND"}' }, ms);
    expect(bed.health.degradations.filter((reason) => reason !== undefined)).to.deep.equal([]);
    await poll(REFUSED, SILENCE_LIMIT_MS);
    expect(bed.health.degradations.at(-1)).to.equal(silenceMessage(REFUSED.error));
    await poll(answer(1, 0), SILENCE_LIMIT_MS + 250);
    expect(bed.health.degradations.at(-1)).to.equal(undefined);
    expect(bed.logger.problems).to.deep.equal([]);
    // Four polls a second: the log tells each change once, not every poll.
    expect(bed.logger.lines.map(({ message }) => message).filter((message) => message.startsWith('League of Legends:'))).to.deep.equal([
      'League of Legends: no match data (not in a match, or loading)',
      'League of Legends: in a match',
    ]);
    await integration.deactivate();
  });

  it('never logs a body: it names every player', async () => {
    const integration = resolve();
    await integration.activate(GAME);
    await poll({ status: 200, body: '{"activePlayer":{"riotId":"Secret#Name"},"allPlayers":"x"}' }, 0);
    await poll(answer(1, 0), 250);
    expect(JSON.stringify(bed.logger.lines)).to.not.include('Secret');
    expect(JSON.stringify(bed.logger.lines)).to.not.include('Mira');
    await integration.deactivate();
  });

  it('forgets the match on deactivate, ignores polls that arrive before the feed is closed, and re-baselines on the next activation', async () => {
    const integration = resolve();
    await integration.activate(GAME);
    await poll(answer(10, 0), 0);
    await integration.deactivate();
    await poll(answer(11, 1, [[1, 10.5]]), 1000);
    expect(bed.bookmarks.added).to.deep.equal([]);
    await integration.activate(GAME);
    await integration.activate(GAME); // twice is safe
    await poll(answer(20, 3), 10_000);
    await poll(answer(21, 4), 11_000);
    expect(bed.bookmarks.added).to.deep.equal([{ type: 'Kill', at: new Date(START + 11_000) }]);
    await integration.deactivate();
  });
});
