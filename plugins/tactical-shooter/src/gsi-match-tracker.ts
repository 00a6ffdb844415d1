// Turns Counter-Strike's Game State Integration pushes into Kill and Death events by comparing the
// local player's match counters with a baseline. Pure: one parsed payload in, its events out.

export type GsiEventType = 'Kill' | 'Death';

/** `count` events of one type implied by one payload (several kills can arrive in one push). */
export interface GsiEvent {
  readonly type: GsiEventType;
  readonly count: number;
}

/** The counters the next payload is compared with, and the match they were read in. */
export interface GsiBaseline {
  readonly map: string;
  readonly mode: string | undefined;
  readonly round: number | undefined;
  readonly kills: number;
  readonly deaths: number;
}

/**
 * - `foreign`: not a push from the game at all (no `provider` block), e.g. a hand-sent test request.
 * - `ignored`: from the game, but it says nothing about the local player's counters; baseline kept.
 * - `baseline`: first usable payload of a match: counters remembered, no events.
 * - `counted`: compared with the baseline; `events` may be empty.
 */
export type GsiOutcome = 'foreign' | 'ignored' | 'baseline' | 'counted';

export interface GsiUpdate {
  readonly outcome: GsiOutcome;
  /** Why, in words, for debug logs and test failures. */
  readonly reason: string;
  readonly events: readonly GsiEvent[];
}

/**
 * Map phases whose payloads carry counters we trust. `warmup` is left out: warmup frags are practice
 * and the game zeroes the counters when the match goes live. `intermission` (half-time) and
 * `gameover` are in because the round-change push is where the last moments of a round first show
 * up (recorded data: the kill of line 147 and the death of line 161 arrive only with the next round's
 * freezetime push); at half-time and at the end of the match that push has these phases.
 */
export const COUNTED_MAP_PHASES: ReadonlySet<string> = new Set(['live', 'intermission', 'gameover']);

type JsonObject = Record<string, unknown>;

export class GsiMatchTracker {
  #baseline: GsiBaseline | undefined;

  /** What the next payload is compared with; `undefined` until the first usable payload. */
  get baseline(): GsiBaseline | undefined {
    return this.#baseline;
  }

  /** Forgets the match: the next usable payload only sets the baseline. */
  reset(): void {
    this.#baseline = undefined;
  }

  /** Reads one payload (parsed JSON of any shape); never throws. */
  update(payload: unknown): GsiUpdate {
    if (!isObject(payload) || !isObject(payload.provider)) return result('foreign', 'no provider block: not sent by the game');
    const { provider, map, player } = payload;

    if (!isObject(map) || typeof map.name !== 'string' || typeof map.phase !== 'string') {
      return result('ignored', 'no map block: not in a match');
    }
    if (!COUNTED_MAP_PHASES.has(map.phase)) return result('ignored', `map phase "${map.phase}" is not counted`);
    if (!isObject(player)) return result('ignored', 'no player block');
    if (typeof player.steamid !== 'string' || player.steamid === '' || player.steamid !== provider.steamid) {
      return result('ignored', 'player is not the local player (spectating)');
    }
    const stats = player.match_stats;
    if (!isObject(stats)) return result('ignored', 'no player.match_stats');
    const kills = stats.kills;
    const deaths = stats.deaths;
    if (!isCounter(kills) || !isCounter(deaths)) return result('ignored', 'player.match_stats kills/deaths are not counts');

    const next: GsiBaseline = {
      map: map.name,
      mode: typeof map.mode === 'string' ? map.mode : undefined,
      round: isCounter(map.round) ? map.round : undefined,
      kills,
      deaths,
    };
    const previous = this.#baseline;
    this.#baseline = next;

    if (previous === undefined) return result('baseline', 'first payload: counters so far are not events');
    const newMatch = newMatchReason(previous, next);
    if (newMatch !== undefined) return result('baseline', newMatch);

    const events: GsiEvent[] = [];
    if (kills > previous.kills) events.push({ type: 'Kill', count: kills - previous.kills });
    if (deaths > previous.deaths) events.push({ type: 'Death', count: deaths - previous.deaths });
    return result(
      'counted',
      events.length === 0 ? 'no change' : `kills ${previous.kills}→${kills}, deaths ${previous.deaths}→${deaths}`,
      events,
    );
  }
}

/** Why `next` belongs to another match than `previous`, or `undefined` when it is the same one. */
function newMatchReason(previous: GsiBaseline, next: GsiBaseline): string | undefined {
  if (next.map !== previous.map) return `new match: map ${previous.map} → ${next.map}`;
  if (next.mode !== previous.mode) return `new match: mode ${previous.mode} → ${next.mode}`;
  if (next.kills < previous.kills || next.deaths < previous.deaths) {
    return `new match: counters went down (${previous.kills}/${previous.deaths} → ${next.kills}/${next.deaths})`;
  }
  // Rounds only go back on a restart (mp_restartgame, a new match on the same map).
  if (previous.round !== undefined && next.round !== undefined && next.round < previous.round) {
    return `new match: round ${previous.round} → ${next.round}`;
  }
  return undefined;
}

function result(outcome: GsiOutcome, reason: string, events: readonly GsiEvent[] = []): GsiUpdate {
  return { outcome, reason, events };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCounter(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
