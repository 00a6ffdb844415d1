import { expect } from 'chai';
import { GsiMatchTracker, type GsiEvent, type GsiUpdate } from './gsi-match-tracker.js';
import { readRequestLog, readSessionBodies, recordedData, SPECTATOR_FILES } from './recorded-payloads.js';

// Recorded payloads are edited freely in these tests.
type Payload = Record<string, any>;

/** The events SOURCES.md's event index lists for `cs2-playing-session.bodies.jsonl` (1-based lines). */
const SESSION_EVENTS: Record<number, GsiEvent[]> = {
  12: [{ type: 'Kill', count: 1 }],
  47: [{ type: 'Death', count: 1 }],
  53: [{ type: 'Death', count: 1 }],
  106: [{ type: 'Death', count: 1 }],
  114: [{ type: 'Death', count: 1 }],
  147: [{ type: 'Kill', count: 1 }],
  161: [{ type: 'Death', count: 1 }],
};
/** New matches and restarts in the same file: counters go down, which is never an event. */
const SESSION_RESETS = [32, 102, 123, 150, 164];

/** Feeds `payloads` and returns the events by 1-based position (first payload = `firstLine`). */
function eventsByLine(tracker: GsiMatchTracker, payloads: readonly unknown[], firstLine = 1): Record<number, GsiEvent[]> {
  const found: Record<number, GsiEvent[]> = {};
  payloads.forEach((payload, index) => {
    const update = tracker.update(payload);
    if (update.events.length > 0) found[firstLine + index] = [...update.events];
  });
  return found;
}

function clone(payload: unknown): Payload {
  return structuredClone(payload) as Payload;
}

describe('GsiMatchTracker', () => {
  describe('against the recorded CS2 session (cs2-playing-session.bodies.jsonl)', () => {
    let bodies: unknown[];
    beforeEach(function () {
      recordedData.skipIfAbsent(this);
      bodies = readSessionBodies();
    });

    it('has the 174 game-sent bodies SOURCES.md describes', () => {
      expect(bodies).to.have.length(174);
    });

    it('finds exactly the kills and deaths of the event index, on their lines', () => {
      expect(eventsByLine(new GsiMatchTracker(), bodies)).to.deep.equal(SESSION_EVENTS);
    });

    it('reads every counter reset as a new match: a new baseline, no events', () => {
      const tracker = new GsiMatchTracker();
      const updates = bodies.map((body) => tracker.update(body));
      for (const line of SESSION_RESETS) {
        expect(updates[line - 1], `line ${line}`).to.include({ outcome: 'baseline' });
        expect(updates[line - 1]!.events, `line ${line}`).to.be.empty;
        expect(updates[line - 1]!.reason, `line ${line}`).to.match(/^new match/);
      }
      // The first payload with the local player's counters (line 4) only sets the baseline.
      expect(updates.findIndex((update) => update.outcome !== 'ignored') + 1).to.equal(4);
      expect(updates[3]).to.include({ outcome: 'baseline' });
      expect(updates.filter((update) => update.outcome === 'baseline')).to.have.length(1 + SESSION_RESETS.length);
    });

    it("counts the kill that only shows up with the next round's freezetime push (line 147)", () => {
      const line147 = bodies[146] as Payload;
      expect(line147.round.phase).to.equal('freezetime');
      expect(line147.map.phase).to.equal('live');
      expect(eventsByLine(new GsiMatchTracker(), bodies.slice(0, 147))[147]).to.deep.equal([{ type: 'Kill', count: 1 }]);
    });

    it("counts the death seen only as a deaths increment on the next round's freezetime push (line 161)", () => {
      const line160 = bodies[159] as Payload;
      const line161 = bodies[160] as Payload;
      expect(line160.player.state.health).to.equal(2);
      expect(line161.round.phase).to.equal('freezetime');
      expect(eventsByLine(new GsiMatchTracker(), bodies.slice(0, 161))[161]).to.deep.equal([{ type: 'Death', count: 1 }]);
    });

    it('keeps the baseline across pushes without a player block (line 48: previously.player = true)', () => {
      const tracker = new GsiMatchTracker();
      bodies.slice(0, 47).forEach((body) => tracker.update(body));
      const before = tracker.baseline;
      expect(before).to.include({ map: 'de_inferno', kills: 0, deaths: 1 });
      const line48 = bodies[47] as Payload;
      expect(line48.player).to.equal(undefined);
      expect(line48.previously.player).to.equal(true);
      expect(tracker.update(line48)).to.deep.include({ outcome: 'ignored', events: [] });
      expect(tracker.baseline).to.equal(before);
    });

    it('keeps the baseline across the menu heartbeats of someone who left the server (lines 1, 2, 30, 100)', () => {
      const tracker = new GsiMatchTracker();
      bodies.slice(0, 29).forEach((body) => tracker.update(body));
      const before = tracker.baseline;
      for (const line of [1, 2, 30, 100]) {
        expect(tracker.update(bodies[line - 1]), `line ${line}`).to.deep.include({ outcome: 'ignored', events: [] });
      }
      expect(tracker.baseline).to.equal(before);
    });

    it('ignores warmup pushes (lines 3, 31, 101) without losing the baseline', () => {
      const tracker = new GsiMatchTracker();
      bodies.slice(0, 29).forEach((body) => tracker.update(body));
      const before = tracker.baseline;
      for (const line of [3, 31, 101]) {
        expect((bodies[line - 1] as Payload).map.phase).to.equal('warmup');
        expect(tracker.update(bodies[line - 1]), `line ${line}`).to.include({ outcome: 'ignored' });
      }
      expect(tracker.baseline).to.equal(before);
    });

    it('joining mid-match only sets the baseline: earlier kills and deaths are not bookmarked', () => {
      const tracker = new GsiMatchTracker();
      const first = tracker.update(bodies[49]); // line 50: 0 kills, 1 death already
      expect(first).to.deep.include({ outcome: 'baseline', events: [] });
      expect(tracker.baseline).to.include({ map: 'de_inferno', kills: 0, deaths: 1 });
      const later = eventsByLine(tracker, bodies.slice(50), 51);
      const expected = Object.fromEntries(Object.entries(SESSION_EVENTS).filter(([line]) => Number(line) > 50));
      expect(later).to.deep.equal(expected);
    });

    it('joining with a kill already on the scoreboard (line 13) does not bookmark it', () => {
      const tracker = new GsiMatchTracker();
      expect(tracker.update(bodies[12])).to.deep.include({ outcome: 'baseline', events: [] });
      expect(tracker.baseline).to.include({ kills: 1, deaths: 0 });
      expect(eventsByLine(tracker, bodies.slice(13, 31), 14)).to.deep.equal({});
    });

    it('turns several kills in one push into that many Kill events', () => {
      const tracker = new GsiMatchTracker();
      bodies.slice(0, 11).forEach((body) => tracker.update(body));
      const multiKill = clone(bodies[11]);
      multiKill.player.match_stats.kills = 3; // line 12 goes 0 → 1; make it 0 → 3
      const update = tracker.update(multiKill);
      expect(update).to.deep.include({ outcome: 'counted', events: [{ type: 'Kill', count: 3 }] });
      expect(tracker.baseline).to.include({ kills: 3, deaths: 0 });
    });

    it('reports a kill and a death in the same push (a trade) as both', () => {
      const tracker = new GsiMatchTracker();
      bodies.slice(0, 11).forEach((body) => tracker.update(body));
      const trade = clone(bodies[11]);
      trade.player.match_stats.deaths = 1;
      expect(tracker.update(trade).events).to.deep.equal([
        { type: 'Kill', count: 1 },
        { type: 'Death', count: 1 },
      ]);
    });

    it("counts pushes of the half-time and game-over phases, where a round's last frags can first appear", () => {
      for (const phase of ['intermission', 'gameover']) {
        const tracker = new GsiMatchTracker();
        bodies.slice(0, 13).forEach((body) => tracker.update(body));
        const roundChange = clone(bodies[13]); // line 14: round 0 → 1, round over
        roundChange.map.phase = phase;
        roundChange.player.match_stats.kills += 1;
        expect(tracker.update(roundChange), phase).to.deep.include({ outcome: 'counted', events: [{ type: 'Kill', count: 1 }] });
      }
      expect((bodies[87] as Payload).map.phase, 'line 88 is the recorded half-time push').to.equal('intermission');
    });

    it('counts a push sent while the player has the in-game menu open (activity "menu", line 28)', () => {
      const tracker = new GsiMatchTracker();
      bodies.slice(0, 27).forEach((body) => tracker.update(body));
      const inMenu = clone(bodies[27]);
      expect(inMenu.player.activity).to.equal('menu');
      inMenu.player.match_stats.deaths += 1;
      expect(tracker.update(inMenu).events).to.deep.equal([{ type: 'Death', count: 1 }]);
    });

    it('ignores kills made during warmup', () => {
      const tracker = new GsiMatchTracker();
      bodies.slice(0, 13).forEach((body) => tracker.update(body));
      const warmup = clone(bodies[12]);
      warmup.map.phase = 'warmup';
      warmup.player.match_stats.kills = 5;
      expect(tracker.update(warmup)).to.deep.include({ outcome: 'ignored', events: [] });
      expect(tracker.baseline).to.include({ kills: 1 });
    });

    it('re-baselines on a new map or mode even when the counters did not go down', () => {
      const tracker = new GsiMatchTracker();
      bodies.slice(0, 13).forEach((body) => tracker.update(body)); // de_dust2 competitive, 1 kill
      const otherMap = clone(bodies[12]);
      otherMap.map.name = 'de_mirage';
      otherMap.player.match_stats.kills = 4;
      expect(tracker.update(otherMap)).to.deep.include({ outcome: 'baseline', events: [] });
      const otherMode = clone(otherMap);
      otherMode.map.mode = 'casual';
      otherMode.player.match_stats.kills = 6;
      expect(tracker.update(otherMode)).to.deep.include({ outcome: 'baseline', events: [] });
      expect(tracker.baseline).to.include({ map: 'de_mirage', mode: 'casual', kills: 6 });
    });

    it('re-baselines when the round number goes back (a restart) even if the counters stayed', () => {
      const tracker = new GsiMatchTracker();
      bodies.slice(0, 29).forEach((body) => tracker.update(body)); // de_dust2, round 3
      const restart = clone(bodies[28]);
      restart.map.round = 0;
      restart.player.match_stats.kills += 2;
      expect(tracker.update(restart)).to.deep.include({ outcome: 'baseline', events: [] });
    });

    it('forgets everything on reset(): the next push is a baseline again', () => {
      const tracker = new GsiMatchTracker();
      bodies.slice(0, 13).forEach((body) => tracker.update(body));
      tracker.reset();
      expect(tracker.baseline).to.equal(undefined);
      expect(tracker.update(bodies[13])).to.include({ outcome: 'baseline' });
    });
  });

  describe('against recorded spectator payloads', () => {
    let spectating: Payload[];
    beforeEach(function () {
      recordedData.skipIfAbsent(this);
      spectating = SPECTATOR_FILES.map((file) => recordedData.json(file) as Payload);
    });

    it('produces nothing for the 4 payloads of someone watching another player', () => {
      const tracker = new GsiMatchTracker();
      for (const [index, payload] of spectating.entries()) {
        expect(payload.player.steamid, SPECTATOR_FILES[index]).to.not.equal(payload.provider.steamid);
        expect(tracker.update(payload), SPECTATOR_FILES[index]).to.deep.include({ outcome: 'ignored', events: [] });
      }
      expect(tracker.baseline).to.equal(undefined);
    });

    it("produces nothing even with the watched player's counters filled in from allplayers", () => {
      const tracker = new GsiMatchTracker();
      for (const [index, original] of spectating.entries()) {
        const payload = clone(original);
        const watched = payload.allplayers[payload.player.steamid];
        payload.player.match_stats = watched.match_stats;
        expect(tracker.update(payload), SPECTATOR_FILES[index]).to.deep.include({ outcome: 'ignored', events: [] });
        payload.player.match_stats = { ...watched.match_stats, kills: watched.match_stats.kills + 2 };
        expect(tracker.update(payload), SPECTATOR_FILES[index]).to.deep.include({ outcome: 'ignored', events: [] });
      }
    });

    it("does not disturb the local player's baseline when mixed into a session", () => {
      const bodies = readSessionBodies();
      const mixed = [...bodies.slice(0, 11), ...spectating, ...bodies.slice(11)];
      const tracker = new GsiMatchTracker();
      const events = mixed.map((payload) => tracker.update(payload).events).filter((list) => list.length > 0);
      expect(events).to.deep.equal(Object.values(SESSION_EVENTS));
    });
  });

  describe('against the recorded request log, foreign requests included (cs2-playing-session.request-log.json)', () => {
    it('ignores the 18 requests the game did not send, and still finds every event', function () {
      recordedData.skipIfAbsent(this);
      const requests = readRequestLog();
      expect(requests).to.have.length(192);
      const tracker = new GsiMatchTracker();
      const foreign: number[] = [];
      const updates: GsiUpdate[] = [];
      requests.forEach((request, index) => {
        const update = tracker.update(JSON.parse(request.body));
        if (update.outcome === 'foreign') foreign.push(index);
        else updates.push(update);
        if (!request.headers['user-agent']?.startsWith('Valve/Steam HTTP Client')) {
          expect(update, `request ${index}`).to.deep.include({ outcome: 'foreign', events: [] });
        }
      });
      expect(foreign).to.deep.equal([73, 74, 75, 77, 78, 80, 115, 116, 117, 118, 119, 121, 122, 123, 133, 134, 135, 136]);
      // What is left is the bodies file: the same events on the same lines.
      const byLine: Record<number, GsiEvent[]> = {};
      updates.forEach((update, index) => {
        if (update.events.length > 0) byLine[index + 1] = [...update.events];
      });
      expect(byLine).to.deep.equal(SESSION_EVENTS);
    });
  });

  describe('malformed input', () => {
    const provider = { name: 'Counter-Strike: Global Offensive', appid: 730, steamid: '76561190000000001' };
    const payload = (kills: unknown, deaths: unknown, changes: Payload = {}): Payload => ({
      provider,
      map: { mode: 'competitive', name: 'de_nuke', phase: 'live', round: 3 },
      player: { steamid: provider.steamid, activity: 'playing', match_stats: { kills, deaths, assists: 0 } },
      ...changes,
    });
    const started = (): GsiMatchTracker => {
      const tracker = new GsiMatchTracker();
      expect(tracker.update(payload(2, 1))).to.include({ outcome: 'baseline' });
      return tracker;
    };

    const cases: Array<[string, unknown]> = [
      ['undefined', undefined],
      ['null', null],
      ['a number', 42],
      ['a string', '{"provider":{}}'],
      ['an array', [payload(5, 1)]],
      ['an empty object', {}],
      ['a body without provider (a hand-sent test request)', { map: { mode: 'competitive', phase: 'live' }, round: { phase: 'live' } }],
      ['kills as a string', payload('5', 1)],
      ['deaths as a string', payload(2, '3')],
      ['negative kills', payload(-1, 1)],
      ['NaN kills', payload(Number.NaN, 1)],
      ['infinite deaths', payload(2, Number.POSITIVE_INFINITY)],
      ['fractional kills', payload(2.5, 1)],
      ['kills as an object', payload({ value: 5 }, 1)],
      ['missing deaths', payload(5, undefined)],
      ['match_stats as an array', payload(5, 1, { player: { steamid: provider.steamid, match_stats: [5, 1] } })],
      ['player as a string', payload(5, 1, { player: 'me' })],
      ['player without steamid', payload(5, 1, { player: { match_stats: { kills: 5, deaths: 1 } } })],
      ['provider without steamid', payload(5, 1, { provider: { appid: 730 }, player: { match_stats: { kills: 5, deaths: 1 } } })],
      ['map as a string', payload(5, 1, { map: 'de_nuke' })],
      ['map without phase', payload(5, 1, { map: { name: 'de_nuke', mode: 'competitive' } })],
      ['map phase as a number', payload(5, 1, { map: { name: 'de_nuke', mode: 'competitive', phase: 1 } })],
      ['an unknown map phase', payload(5, 1, { map: { name: 'de_nuke', mode: 'competitive', phase: 'paused' } })],
    ];
    for (const [name, input] of cases) {
      it(`gives no event and keeps the baseline for ${name}`, () => {
        const tracker = started();
        const before = tracker.baseline;
        let update: GsiUpdate | undefined;
        expect(() => {
          update = tracker.update(input);
        }).to.not.throw();
        expect(update!.events).to.be.empty;
        expect(update!.outcome).to.be.oneOf(['foreign', 'ignored']);
        expect(tracker.baseline).to.equal(before);
        // The next good payload is still compared with the old baseline.
        expect(tracker.update(payload(3, 1)).events).to.deep.equal([{ type: 'Kill', count: 1 }]);
      });
    }

    it('does not start a baseline from a malformed payload', () => {
      const tracker = new GsiMatchTracker();
      tracker.update(payload('9', 9));
      expect(tracker.baseline).to.equal(undefined);
      expect(tracker.update(payload(1, 0))).to.include({ outcome: 'baseline' });
    });

    it('accepts a cyclic object: it reads only the fields it needs', () => {
      const cyclic = payload(3, 1);
      cyclic.previously = cyclic;
      const tracker = started();
      expect(tracker.update(cyclic).events).to.deep.equal([{ type: 'Kill', count: 1 }]);
    });
  });
});
