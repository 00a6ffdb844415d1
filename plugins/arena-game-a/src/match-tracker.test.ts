import { expect } from 'chai';
import { readAllGameData, type ChampionKill, type GameSnapshot, type Scores } from './live-client-data.js';
import { EVENT_SLACK_SECONDS, MatchTracker, type PlayerEvent } from './match-tracker.js';
import { EVENT_DATA_FILE, PLAYING_FILE, recordedData } from './recorded-game-data.js';

const ME = new Set(['Mira', 'Mira#EUW']);
const ROSTER = 'Mira#EUW:Lux\nTovan#0001:Darius';

function snapshot(gameTime: number, scores: Partial<Scores>, championKills: ChampionKill[] = [], roster = ROSTER): GameSnapshot {
  return { gameTime, gameMode: 'CLASSIC', playerNames: ME, scores: { kills: 0, deaths: 0, assists: 0, ...scores }, roster, championKills };
}
const kill = (id: number, time: number, killer: string, victim: string, assisters: string[] = []): ChampionKill => ({
  id,
  time,
  killer,
  victim,
  assisters,
});

function eventsOf(tracker: MatchTracker, next: GameSnapshot): readonly PlayerEvent[] {
  const update = tracker.update(next);
  if (update.outcome !== 'counted') throw new Error(`expected counted, got ${update.outcome}: ${update.reason}`);
  return update.events;
}

describe('MatchTracker', () => {
  it('only takes a baseline from the first snapshot, whatever its scores (joined mid-match)', () => {
    const tracker = new MatchTracker();
    expect(tracker.update(snapshot(1200, { kills: 7, deaths: 2, assists: 9 }, [kill(1, 1199.5, 'Mira', 'Tovan')])).outcome).to.equal(
      'baseline',
    );
    expect(eventsOf(tracker, snapshot(1200.25, { kills: 7, deaths: 2, assists: 9 }, [kill(1, 1199.5, 'Mira', 'Tovan')]))).to.deep.equal([]);
  });

  it('dates each increase by its ChampionKill: killer, victim or assister', () => {
    const tracker = new MatchTracker();
    tracker.update(snapshot(10, {}));
    const [first] = eventsOf(tracker, snapshot(10.25, { kills: 1 }, [kill(1, 10.1, 'Mira', 'Tovan')]));
    expect(first!.type).to.equal('Kill');
    expect(first!.secondsBefore).to.be.closeTo(0.15, 1e-9);
    const events = eventsOf(
      tracker,
      snapshot(20, { kills: 1, deaths: 1, assists: 1 }, [
        kill(1, 10.1, 'Mira', 'Tovan'),
        kill(2, 18, 'Kell', 'Tovan', ['Mira#EUW']),
        kill(3, 19, 'Turret_T2_L_03_A', 'Mira'),
      ]),
    );
    expect(events.map(({ type, secondsBefore }) => [type, Math.round(secondsBefore * 100) / 100])).to.deep.equal([
      ['Assist', 2],
      ['Death', 1],
    ]);
  });

  it('gives one event per unit when several happen between two polls, each at its own time', () => {
    const tracker = new MatchTracker();
    tracker.update(snapshot(100, {}));
    const events = eventsOf(
      tracker,
      snapshot(101, { kills: 3 }, [kill(1, 100.2, 'Mira', 'Tovan'), kill(2, 100.5, 'Mira', 'Kell'), kill(3, 100.9, 'Mira', 'Brisa')]),
    );
    expect(events.map(({ secondsBefore }) => Math.round(secondsBefore * 10) / 10)).to.deep.equal([0.8, 0.5, 0.1]);
  });

  it('places an increase without a matching ChampionKill at the poll, and does not reuse that event later', () => {
    const tracker = new MatchTracker();
    tracker.update(snapshot(50, {}));
    const events = eventsOf(tracker, snapshot(50.25, { kills: 2 }, [kill(1, 50.1, 'Mira', 'Tovan')]));
    expect(events.map(({ type }) => type)).to.deep.equal(['Kill', 'Kill']);
    expect(events[0]!.secondsBefore).to.be.closeTo(0.15, 1e-9);
    expect(events[1]!.secondsBefore).to.equal(0);
    // The second kill's event shows up one poll late: already counted, nothing more.
    expect(eventsOf(tracker, snapshot(50.5, { kills: 2 }, [kill(1, 50.1, 'Mira', 'Tovan'), kill(2, 50.2, 'Mira', 'Kell')]))).to.deep.equal(
      [],
    );
  });

  it("ignores ChampionKills too old to explain the change, and other players' ones", () => {
    const tracker = new MatchTracker();
    tracker.update(snapshot(300, {}, []));
    const events = eventsOf(
      tracker,
      snapshot(300.25, { deaths: 1 }, [kill(1, 300 - EVENT_SLACK_SECONDS - 1, 'Tovan', 'Mira'), kill(2, 300.1, 'Tovan', 'Kell')]),
    );
    expect(events).to.deep.equal([{ type: 'Death', secondsBefore: 0 }]);
  });

  it('takes a new baseline for a new match: other roster, game time back, or scores down', () => {
    const tracker = new MatchTracker();
    tracker.update(snapshot(300, { kills: 3 }));
    let update = tracker.update(snapshot(400, { kills: 5 }, [], 'Mira#EUW:Ezreal\nVask#9001:Zed'));
    expect(update).to.deep.include({ outcome: 'baseline', reason: 'new match: other players or champions' });
    update = tracker.update(snapshot(5, { kills: 5 }, [], 'Mira#EUW:Ezreal\nVask#9001:Zed'));
    expect(update.outcome === 'baseline' && update.reason).to.match(/^new match: game time went back/);
    update = tracker.update(snapshot(6, { kills: 4, assists: 9 }, [], 'Mira#EUW:Ezreal\nVask#9001:Zed'));
    expect(update.outcome === 'baseline' && update.reason).to.equal('new match: scores went down (5/0/0 → 4/0/9)');
    expect(eventsOf(tracker, snapshot(7, { kills: 5, assists: 9 }, [], 'Mira#EUW:Ezreal\nVask#9001:Zed'))).to.deep.equal([
      { type: 'Kill', secondsBefore: 0 },
    ]);
  });

  it('forgets the match on reset(): the next snapshot is a baseline again', () => {
    const tracker = new MatchTracker();
    tracker.update(snapshot(10, { kills: 1 }));
    tracker.reset();
    expect(tracker.baseline).to.equal(undefined);
    expect(tracker.update(snapshot(11, { kills: 4 })).outcome).to.equal('baseline');
  });

  describe('with the real match, polled every 5 s of game time (derived from the recorded answer)', () => {
    interface Answer {
      activePlayer: { summonerName: string };
      allPlayers: Array<{ summonerName: string; scores: Scores }>;
      gameData: { gameTime: number };
    }
    interface RecordedEvent {
      EventName: string;
      EventTime: number;
      KillerName?: string;
      VictimName?: string;
      Assisters?: string[];
    }

    /**
     * The recorded answer as the game would have given it at `gameTime`: events up to then, and the
     * player's scores counted from them (they match the recorded scoreboard exactly at the end).
     */
    function answerAt(recorded: Answer, events: RecordedEvent[], gameTime: number): string {
      const me = recorded.activePlayer.summonerName;
      const happened = events.filter((event) => event.EventTime <= gameTime);
      const kills = happened.filter((event) => event.EventName === 'ChampionKill');
      const scores = {
        kills: kills.filter((event) => event.KillerName === me).length,
        deaths: kills.filter((event) => event.VictimName === me).length,
        assists: kills.filter((event) => event.Assisters?.includes(me)).length,
      };
      const allPlayers = recorded.allPlayers.map((player) =>
        player.summonerName === me ? { ...player, scores: { ...player.scores, ...scores } } : player,
      );
      return JSON.stringify({ ...recorded, allPlayers, events: { Events: happened }, gameData: { ...recorded.gameData, gameTime } });
    }

    it("bookmarks mikehpoo's 6 kills, 9 deaths and 10 assists at their exact event times, and the scoreboard agrees", function () {
      recordedData.skipIfAbsent(this);
      const recorded = JSON.parse(recordedData.text(PLAYING_FILE)) as Answer;
      const events = (JSON.parse(recordedData.text(EVENT_DATA_FILE)) as { Events: RecordedEvent[] }).Events;
      const tracker = new MatchTracker();
      const found: Array<[string, number]> = [];
      for (let gameTime = 1; gameTime <= recorded.gameData.gameTime + 5; gameTime += 5) {
        const reading = readAllGameData(answerAt(recorded, events, gameTime));
        if (reading.kind !== 'playing') throw new Error(`unreadable at ${gameTime} s`);
        const update = tracker.update(reading.snapshot);
        if (update.outcome === 'counted')
          for (const event of update.events) found.push([event.type, Math.round((gameTime - event.secondsBefore) * 10) / 10]);
      }
      const eventTimes = (role: (event: RecordedEvent) => boolean) =>
        events.filter((event) => event.EventName === 'ChampionKill' && role(event)).map((event) => Math.round(event.EventTime * 10) / 10);
      const kills = found.filter(([type]) => type === 'Kill').map(([, time]) => time);
      expect(kills).to.deep.equal([778.4, 952.1, 1053.9, 1344.7, 1454, 1569.4]);
      expect(kills).to.deep.equal(eventTimes((event) => event.KillerName === 'mikehpoo'));
      expect(found.filter(([type]) => type === 'Death').map(([, time]) => time)).to.deep.equal(
        eventTimes((event) => event.VictimName === 'mikehpoo'),
      );
      expect(found.filter(([type]) => type === 'Assist').map(([, time]) => time)).to.deep.equal(
        eventTimes((event) => event.Assisters?.includes('mikehpoo') === true),
      );
      expect(
        found
          .map(([type]) => type)
          .reduce((counts, type) => ({ ...counts, [type]: (counts[type] ?? 0) + 1 }), {} as Record<string, number>),
      ).to.deep.equal({ Kill: 6, Death: 9, Assist: 10 });
      // The derived answers end where the recording did: the same scoreboard.
      const final = readAllGameData(answerAt(recorded, events, recorded.gameData.gameTime));
      expect(final.kind === 'playing' && final.snapshot.scores).to.deep.equal(readAllGameDataScores(recordedData.text(PLAYING_FILE)));
    });

    function readAllGameDataScores(body: string): Scores | undefined {
      const reading = readAllGameData(body);
      return reading.kind === 'playing' ? reading.snapshot.scores : undefined;
    }
  });
});
