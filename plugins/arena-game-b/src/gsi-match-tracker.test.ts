import { expect } from 'chai';
import { GsiMatchTracker, type GsiEvent } from './gsi-match-tracker.js';
import {
  EVENTS_BLOCK,
  MENU_HEARTBEAT,
  PREGAME_PAYLOAD,
  readLobbyToPostgameBodies,
  recordedData,
  SPECTATOR_FILES,
  withCounters,
} from './recorded-payloads.js';

const IN_PROGRESS = 'DOTA_GAMERULES_STATE_GAME_IN_PROGRESS';
const POST_GAME = 'DOTA_GAMERULES_STATE_POST_GAME';
const PRE_GAME = 'DOTA_GAMERULES_STATE_PRE_GAME';

/** A local-player payload with the fields the tracker reads, shaped like the recorded ones. */
function payload(kills: number, deaths: number, assists: number, gameState = IN_PROGRESS, matchid = '7400000001'): unknown {
  return {
    provider: { name: 'Dota 2', appid: 570, version: 47, timestamp: 1763800000 },
    map: { name: 'start', matchid, game_state: gameState, clock_time: 300 },
    player: { steamid: '76561198000000001', activity: 'playing', kills, deaths, assists, kill_list: {} },
  };
}

const events = (...list: Array<[GsiEvent['type'], number]>): GsiEvent[] => list.map(([type, count]) => ({ type, count }));

describe('GsiMatchTracker', () => {
  describe('counting', () => {
    it('only takes a baseline from the first payload, whatever its counters (joined mid-match)', () => {
      const tracker = new GsiMatchTracker();
      expect(tracker.update(payload(7, 3, 9))).to.deep.include({ outcome: 'baseline', events: [] });
      expect(tracker.baseline).to.deep.equal({ matchId: '7400000001', kills: 7, deaths: 3, assists: 9 });
      expect(tracker.update(payload(8, 3, 9)).events).to.deep.equal(events(['Kill', 1]));
    });

    it('turns each counter that goes up into events of its type', () => {
      const tracker = new GsiMatchTracker();
      tracker.update(payload(0, 0, 0));
      expect(tracker.update(payload(1, 0, 0)).events).to.deep.equal(events(['Kill', 1]));
      expect(tracker.update(payload(1, 1, 0)).events).to.deep.equal(events(['Death', 1]));
      expect(tracker.update(payload(1, 1, 1)).events).to.deep.equal(events(['Assist', 1]));
      expect(tracker.update(payload(1, 1, 1))).to.deep.include({ outcome: 'counted', reason: 'no change', events: [] });
    });

    it('gives the whole increase when one push carries several (a multi-kill)', () => {
      const tracker = new GsiMatchTracker();
      tracker.update(payload(2, 1, 4));
      expect(tracker.update(payload(5, 2, 6)).events).to.deep.equal(events(['Kill', 3], ['Death', 1], ['Assist', 2]));
    });

    it('still counts in post-game (the push that ends the match can carry the last kill)', () => {
      const tracker = new GsiMatchTracker();
      tracker.update(payload(4, 4, 4));
      expect(tracker.update(payload(5, 4, 4, POST_GAME)).events).to.deep.equal(events(['Kill', 1]));
    });

    it('moves the baseline before the horn without events, so a pre-game kill is not bookmarked later', () => {
      const tracker = new GsiMatchTracker();
      tracker.update(payload(0, 0, 0, PRE_GAME));
      expect(tracker.update(payload(1, 0, 0, PRE_GAME))).to.deep.include({ outcome: 'ignored', events: [] });
      expect(tracker.update(payload(1, 0, 0))).to.deep.include({ outcome: 'counted', events: [] });
      expect(tracker.update(payload(2, 0, 0)).events).to.deep.equal(events(['Kill', 1]));
    });
  });

  describe('new match', () => {
    it('re-baselines when any counter goes down', () => {
      for (const [kills, deaths, assists] of [
        [0, 2, 3],
        [5, 0, 3],
        [5, 2, 0],
      ] as const) {
        const tracker = new GsiMatchTracker();
        tracker.update(payload(5, 2, 3, IN_PROGRESS, '0'));
        const update = tracker.update(payload(kills, deaths, assists, IN_PROGRESS, '0'));
        expect(update).to.deep.include({ outcome: 'baseline', events: [] });
        expect(update.reason).to.match(/^new match: counters went down/);
      }
    });

    it('re-baselines on another match id even when no counter went down', () => {
      const tracker = new GsiMatchTracker();
      tracker.update(payload(0, 1, 0, POST_GAME, '7400000001'));
      const update = tracker.update(payload(2, 1, 1, IN_PROGRESS, '7400000002'));
      expect(update).to.deep.include({ outcome: 'baseline', events: [] });
      expect(update.reason).to.equal('new match: match id 7400000001 → 7400000002');
      expect(tracker.update(payload(3, 1, 1, IN_PROGRESS, '7400000002')).events).to.deep.equal(events(['Kill', 1]));
    });

    it('re-baselines when a bot match (match id "0") is followed by a real one at higher counters', () => {
      const tracker = new GsiMatchTracker();
      tracker.update(payload(0, 1, 0, IN_PROGRESS, '0'));
      expect(tracker.update(payload(2, 1, 1, IN_PROGRESS, '7400000003'))).to.deep.include({
        outcome: 'baseline',
        reason: 'new match: match id 0 → 7400000003',
        events: [],
      });
    });

    it('forgets the match on reset(): the next payload is a baseline again', () => {
      const tracker = new GsiMatchTracker();
      tracker.update(payload(1, 0, 0));
      tracker.reset();
      expect(tracker.baseline).to.equal(undefined);
      expect(tracker.update(payload(4, 0, 0))).to.deep.include({ outcome: 'baseline', events: [] });
    });
  });

  describe('what it does not count', () => {
    it('ignores spectator payloads (team-keyed player blocks) and keeps the baseline', () => {
      const tracker = new GsiMatchTracker();
      tracker.update(payload(1, 1, 1));
      const spectating = {
        ...(payload(0, 0, 0) as object),
        player: { team2: { player0: { kills: 9, deaths: 0, assists: 0 } }, team3: { player5: { kills: 0, deaths: 9, assists: 0 } } },
      };
      expect(tracker.update(spectating)).to.deep.include({ outcome: 'ignored', events: [] });
      expect(tracker.baseline).to.deep.include({ kills: 1, deaths: 1, assists: 1 });
    });

    it('says a payload is not from Dota 2 when it has no provider with app id 570', () => {
      const tracker = new GsiMatchTracker();
      for (const foreign of [null, 'text', 3, [], {}, { provider: {} }, { provider: { appid: 730 }, map: {}, player: {} }]) {
        expect(tracker.update(foreign).outcome, JSON.stringify(foreign)).to.equal('foreign');
      }
    });

    it('reports a match without player counters as incomplete, and bad counters as ignored, keeping the baseline', () => {
      const tracker = new GsiMatchTracker();
      tracker.update(payload(1, 1, 1));
      const broken = (player: unknown) => ({ ...(payload(0, 0, 0) as object), player });
      for (const player of [undefined, null, {}, { steamid: '1', name: 'x' }]) {
        expect(tracker.update(broken(player)), JSON.stringify(player)).to.deep.include({ outcome: 'incomplete', events: [] });
      }
      for (const player of [
        { kills: 2, deaths: 1 },
        { kills: -1, deaths: 1, assists: 1 },
        { kills: 1.5, deaths: 1, assists: 1 },
        { kills: '2', deaths: 1, assists: 1 },
        { kills: 2 ** 60, deaths: 1, assists: 1 },
      ]) {
        expect(tracker.update(broken(player)), JSON.stringify(player)).to.deep.include({
          outcome: 'ignored',
          reason: 'player.kills/deaths/assists are not counts',
          events: [],
        });
      }
      expect(tracker.baseline).to.deep.include({ kills: 1, deaths: 1, assists: 1 });
      expect(tracker.update(payload(2, 1, 1)).events).to.deep.equal(events(['Kill', 1]));
    });

    it('ignores payloads without a map block or game state (menus)', () => {
      const tracker = new GsiMatchTracker();
      const provider = { appid: 570 };
      for (const menu of [
        { provider },
        { provider, player: {} },
        { provider, map: { game_state: 5 }, player: { kills: 1, deaths: 0, assists: 0 } },
      ]) {
        expect(tracker.update(menu).outcome).to.equal('ignored');
      }
      expect(tracker.baseline).to.equal(undefined);
    });
  });

  describe('recorded Dota 2 payloads', () => {
    it('the menu heartbeat is from the game but counts nothing', function () {
      recordedData.skipIfAbsent(this);
      const update = new GsiMatchTracker().update(recordedData.json(MENU_HEARTBEAT));
      expect(update).to.deep.include({ outcome: 'ignored', reason: 'no map block: not in a match', events: [] });
    });

    it('the events block alone is not a game push', function () {
      recordedData.skipIfAbsent(this);
      expect(new GsiMatchTracker().update(recordedData.json(EVENTS_BLOCK)).outcome).to.equal('foreign');
    });

    it('lobby to post-game at 0/0/0: baselines when the match id appears, never an event', function () {
      recordedData.skipIfAbsent(this);
      const tracker = new GsiMatchTracker();
      const outcomes = readLobbyToPostgameBodies().map((body) => tracker.update(JSON.parse(body)));
      expect(outcomes.map(({ outcome }) => outcome)).to.deep.equal([
        'ignored',
        'baseline',
        'ignored',
        'baseline',
        'ignored',
        'ignored',
        'ignored',
        'ignored',
        'ignored',
        'ignored',
        'counted',
        'counted',
      ]);
      expect(outcomes[3]!.reason, 'hero selection brings the match id').to.equal('new match: match id 0 → MATCH_ID');
      expect(outcomes.flatMap(({ events }) => events)).to.deep.equal([]);
      expect(tracker.baseline).to.deep.equal({ matchId: 'MATCH_ID', kills: 0, deaths: 0, assists: 0 });
    });

    it('the pre-game payload is a baseline', function () {
      recordedData.skipIfAbsent(this);
      expect(new GsiMatchTracker().update(recordedData.json(PREGAME_PAYLOAD))).to.deep.include({ outcome: 'baseline', events: [] });
    });

    it('both spectator payloads are ignored although their match is in progress', function () {
      recordedData.skipIfAbsent(this);
      for (const file of SPECTATOR_FILES) {
        const tracker = new GsiMatchTracker();
        const update = tracker.update(recordedData.json(file));
        expect(update, file).to.deep.include({ outcome: 'ignored', reason: 'team-keyed player blocks: spectating, not playing' });
        expect(tracker.baseline, file).to.equal(undefined);
      }
    });

    it('derived pairs of the in-progress payload: a kill, a triple kill with an assist, a death', function () {
      recordedData.skipIfAbsent(this);
      const inProgress = readLobbyToPostgameBodies()[10]!;
      const tracker = new GsiMatchTracker();
      tracker.update(JSON.parse(inProgress));
      const next = (kills: number, deaths: number, assists: number) =>
        tracker.update(JSON.parse(withCounters(inProgress, { kills, deaths, assists }))).events;
      expect(next(1, 0, 0)).to.deep.equal(events(['Kill', 1]));
      expect(next(4, 0, 1)).to.deep.equal(events(['Kill', 3], ['Assist', 1]));
      expect(next(4, 1, 1)).to.deep.equal(events(['Death', 1]));
    });
  });
});
