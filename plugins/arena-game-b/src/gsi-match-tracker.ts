// Turns Dota 2's Game State Integration pushes into Kill, Death and Assist events by comparing the
// local player's `player` counters with a baseline. Pure: one parsed payload in, its events out.

export type GsiEventType = 'Kill' | 'Death' | 'Assist';

/** `count` events of one type implied by one payload (a multi-kill can arrive in one push). */
export interface GsiEvent {
  readonly type: GsiEventType;
  readonly count: number;
}

/** The counters the next payload is compared with, and the match they were read in. */
export interface GsiBaseline {
  readonly matchId: string | undefined;
  readonly kills: number;
  readonly deaths: number;
  readonly assists: number;
}

/**
 * - `foreign`: not a push from Dota 2 (no `provider` block with app id 570), e.g. a hand-sent request.
 * - `ignored`: from the game, but nothing to count: menu, hero selection, spectating, counters that
 *   are not counts; baseline kept.
 * - `incomplete`: in a match, but without the local player's counters (what a config without the
 *   `player` block sends); baseline kept.
 * - `baseline`: first usable payload, or the first of a new match: counters remembered, no events.
 * - `counted`: compared with the baseline; `events` may be empty.
 */
export type GsiOutcome = 'foreign' | 'ignored' | 'incomplete' | 'baseline' | 'counted';

export interface GsiUpdate {
  readonly outcome: GsiOutcome;
  /** Why, in words, for debug logs, health and test failures. */
  readonly reason: string;
  readonly events: readonly GsiEvent[];
}

export const DOTA_APP_ID = 570;

/** `map.game_state` values of an active match: only these turn counter increases into events. */
export const COUNTED_GAME_STATES: ReadonlySet<string> = new Set([
  'DOTA_GAMERULES_STATE_GAME_IN_PROGRESS',
  'DOTA_GAMERULES_STATE_POST_GAME',
]);

type JsonObject = Record<string, unknown>;

const COUNTER_KEYS = ['kills', 'deaths', 'assists'] as const;

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
    if (!isObject(payload) || !isObject(payload.provider) || payload.provider.appid !== DOTA_APP_ID) {
      return result('foreign', `no provider block with appid ${DOTA_APP_ID}: not sent by Dota 2`);
    }
    const { map, player } = payload;
    if (!isObject(map) || typeof map.game_state !== 'string') return result('ignored', 'no map block: not in a match');
    const counted = COUNTED_GAME_STATES.has(map.game_state);
    // Spectators (and casters) get one block per team (`team2`, `team3`) holding every player.
    if (isObject(player) && Object.keys(player).some((key) => /^team\d+$/.test(key))) {
      return result('ignored', 'team-keyed player blocks: spectating, not playing');
    }
    if (!isObject(player) || !COUNTER_KEYS.some((key) => key in player)) {
      return counted
        ? result('incomplete', 'in a match, but no player.kills/deaths/assists')
        : result('ignored', `${map.game_state} without player counters`);
    }
    const counters = readCounters(player);
    if (counters === undefined) return result('ignored', 'player.kills/deaths/assists are not counts');

    const next: GsiBaseline = { matchId: typeof map.matchid === 'string' ? map.matchid : undefined, ...counters };
    const previous = this.#baseline;
    this.#baseline = next;
    if (previous === undefined) return result('baseline', 'first payload: counters so far are not events');
    const newMatch = newMatchReason(previous, next);
    if (newMatch !== undefined) return result('baseline', newMatch);
    // Before the horn (hero selection, strategy time, pre-game) counters move the baseline only.
    if (!counted) return result('ignored', `${map.game_state} is not an active match`);

    const events: GsiEvent[] = [];
    if (next.kills > previous.kills) events.push({ type: 'Kill', count: next.kills - previous.kills });
    if (next.deaths > previous.deaths) events.push({ type: 'Death', count: next.deaths - previous.deaths });
    if (next.assists > previous.assists) events.push({ type: 'Assist', count: next.assists - previous.assists });
    return result('counted', events.length === 0 ? 'no change' : `${describe(previous)} → ${describe(next)}`, events);
  }
}

function readCounters(player: JsonObject): Pick<GsiBaseline, 'kills' | 'deaths' | 'assists'> | undefined {
  const { kills, deaths, assists } = player;
  return isCounter(kills) && isCounter(deaths) && isCounter(assists) ? { kills, deaths, assists } : undefined;
}

/** Why `next` belongs to another match than `previous`, or `undefined` when it is the same one. */
function newMatchReason(previous: GsiBaseline, next: GsiBaseline): string | undefined {
  // Lobbies and bot matches say "0"; a missing id is a change too: the config always asks for `map`.
  if (next.matchId !== previous.matchId) return `new match: match id ${previous.matchId} → ${next.matchId}`;
  if (next.kills < previous.kills || next.deaths < previous.deaths || next.assists < previous.assists) {
    return `new match: counters went down (${describe(previous)} → ${describe(next)})`;
  }
  return undefined;
}

function describe(counters: GsiBaseline): string {
  return `${counters.kills}/${counters.deaths}/${counters.assists}`;
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
