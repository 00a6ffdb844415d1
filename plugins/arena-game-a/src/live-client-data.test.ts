import { expect } from 'chai';
import { readAllGameData, type GameSnapshot } from './live-client-data.js';
import { PLAYING_FILE, recordedData, SPECTATING_FILE } from './recorded-game-data.js';

const answer = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    activePlayer: { riotId: 'Mira#EUW', riotIdGameName: 'Mira', riotIdTagLine: 'EUW', summonerName: 'Mira#EUW', level: 3 },
    allPlayers: [
      {
        riotId: 'Kell#7777',
        riotIdGameName: 'Kell',
        riotIdTagLine: '7777',
        summonerName: 'Kell#7777',
        championName: 'Thresh',
        scores: { kills: 9, deaths: 9, assists: 9 },
      },
      {
        riotId: 'Mira#EUW',
        riotIdGameName: 'Mira',
        riotIdTagLine: 'EUW',
        summonerName: 'Mira#EUW',
        championName: 'Lux',
        scores: { kills: 2, deaths: 1, assists: 4, creepScore: 30 },
      },
    ],
    events: {
      Events: [
        { EventID: 0, EventName: 'GameStart', EventTime: 0.05 },
        { EventID: 1, EventName: 'ChampionKill', EventTime: 95.5, KillerName: 'Mira', VictimName: 'Tovan', Assisters: ['Kell'] },
      ],
    },
    gameData: { gameMode: 'CHERRY', gameTime: 100.25 },
    ...overrides,
  });

function snapshotOf(body: string): GameSnapshot {
  const reading = readAllGameData(body);
  if (reading.kind !== 'playing') throw new Error(`expected playing, got ${JSON.stringify(reading)}`);
  return reading.snapshot;
}

describe('readAllGameData', () => {
  it('reads the local player (matched by Riot ID), the game time and the champion kills', () => {
    const snapshot = snapshotOf(answer());
    expect(snapshot.gameTime).to.equal(100.25);
    expect(snapshot.gameMode).to.equal('CHERRY');
    expect(snapshot.scores).to.deep.equal({ kills: 2, deaths: 1, assists: 4 });
    expect([...snapshot.playerNames].sort()).to.deep.equal(['Mira', 'Mira#EUW']);
    expect(snapshot.championKills).to.deep.equal([{ id: 1, time: 95.5, killer: 'Mira', victim: 'Tovan', assisters: ['Kell'] }]);
  });

  it('falls back to the summoner name for clients without Riot IDs', () => {
    const snapshot = snapshotOf(
      answer({
        activePlayer: { summonerName: 'mikehpoo' },
        allPlayers: [
          { summonerName: 'wezznco', championName: 'Brand', scores: { kills: 0, deaths: 4, assists: 5 } },
          { summonerName: 'mikehpoo', championName: 'Lux', scores: { kills: 6, deaths: 9, assists: 10 } },
        ],
      }),
    );
    expect(snapshot.scores).to.deep.equal({ kills: 6, deaths: 9, assists: 10 });
    expect([...snapshot.playerNames]).to.deep.equal(['mikehpoo']);
  });

  it('finds a player whose activePlayer name carries the tag that allPlayers splits off', () => {
    const snapshot = snapshotOf(
      answer({
        activePlayer: { summonerName: 'Mira#EUW' },
        allPlayers: [
          {
            summonerName: 'Mira',
            riotIdGameName: 'Mira',
            riotIdTagLine: 'EUW',
            championName: 'Lux',
            scores: { kills: 1, deaths: 0, assists: 0 },
          },
        ],
      }),
    );
    expect(snapshot.scores.kills).to.equal(1);
  });

  it('tells a spectator answer apart', () => {
    expect(readAllGameData(answer({ activePlayer: { error: "Spectator mode doesn't currently support this feature" } }))).to.deep.equal({
      kind: 'spectating',
    });
  });

  it('gives a different roster for other players or champions, the same for the same match', () => {
    const roster = snapshotOf(answer()).roster;
    expect(snapshotOf(answer({ gameData: { gameTime: 500 } })).roster).to.equal(roster);
    const otherChampion = JSON.parse(answer()) as { allPlayers: Array<Record<string, unknown>> };
    otherChampion.allPlayers[0]!.championName = 'Sona';
    expect(snapshotOf(JSON.stringify(otherChampion)).roster).to.not.equal(roster);
  });

  it('says why an answer cannot be read, without throwing', () => {
    const me = (scores: unknown) => answer({ allPlayers: [{ riotId: 'Mira#EUW', championName: 'Lux', scores }] });
    const cases: Array<[string, string]> = [
      ['{"activePlayer"', 'not JSON'],
      ['[]', 'not a JSON object'],
      ['{}', 'no activePlayer'],
      [answer({ allPlayers: 'x' }), 'allPlayers is not a list of players'],
      [answer({ allPlayers: [null] }), 'allPlayers is not a list of players'],
      [answer({ gameData: {} }), 'gameData.gameTime is not a time'],
      [answer({ gameData: { gameTime: -1 } }), 'gameData.gameTime is not a time'],
      [answer({ activePlayer: { riotId: 'Someone#else' } }), 'the active player is not in allPlayers'],
      [answer({ activePlayer: { riotId: '', summonerName: '' } }), 'the active player is not in allPlayers'],
      [me({ kills: -1, deaths: 0, assists: 0 }), "the active player's scores are not counts"],
      [me({ kills: 1.5, deaths: 0, assists: 0 }), "the active player's scores are not counts"],
      [me({ kills: '1', deaths: 0, assists: 0 }), "the active player's scores are not counts"],
      [me({ kills: 1, deaths: 0 }), "the active player's scores are not counts"],
      [me(undefined), "the active player's scores are not counts"],
    ];
    for (const [body, reason] of cases) expect(readAllGameData(body), body).to.deep.equal({ kind: 'unreadable', reason });
  });

  it('keeps a good answer whose event list is broken, skipping the events it cannot read', () => {
    expect(snapshotOf(answer({ events: 'oops' })).championKills).to.deep.equal([]);
    const events = {
      Events: [
        null,
        'x',
        { EventName: 'ChampionKill', EventTime: 1, KillerName: 'Mira', VictimName: 'Tovan' },
        { EventID: 2, EventName: 'ChampionKill', EventTime: '3', KillerName: 'Mira', VictimName: 'Tovan' },
        { EventID: 3, EventName: 'ChampionKill', EventTime: 4, KillerName: 'Mira', VictimName: 'Tovan', Assisters: 'Kell' },
        { EventID: 4, EventName: 'ChampionKill', EventTime: 5, KillerName: 'Mira', VictimName: 'Tovan' },
        { EventID: 5, EventName: 'TurretKilled', EventTime: 6, KillerName: 'Mira', TurretKilled: 'Turret_T2_L_03_A' },
      ],
    };
    expect(snapshotOf(answer({ events })).championKills).to.deep.equal([
      { id: 4, time: 5, killer: 'Mira', victim: 'Tovan', assisters: [] },
    ]);
  });

  describe('with the real answers', () => {
    it('reads the playing sample: mikehpoo (Lux) at 6/9/10, 75 champion kills, 28 minutes in', function () {
      recordedData.skipIfAbsent(this);
      const snapshot = snapshotOf(recordedData.text(PLAYING_FILE));
      expect([...snapshot.playerNames]).to.deep.equal(['mikehpoo']);
      expect(snapshot.scores).to.deep.equal({ kills: 6, deaths: 9, assists: 10 });
      expect(snapshot.championKills).to.have.length(75);
      expect(snapshot.gameTime).to.be.closeTo(1680.27, 0.01);
      expect(snapshot.gameMode).to.equal('CLASSIC');
    });

    it('reads the zh-CN spectator sample as spectating', function () {
      recordedData.skipIfAbsent(this);
      expect(readAllGameData(recordedData.text(SPECTATING_FILE))).to.deep.equal({ kind: 'spectating' });
    });
  });
});
