// Turns successive Live Client Data snapshots into the local player's kills, deaths and assists:
// the scoreboard says how many happened since the last poll, the match's ChampionKill events say
// when. Pure: one snapshot in, its events out.
import type { ChampionKill, GameSnapshot, Scores } from './live-client-data.js';

export type PlayerEventType = 'Kill' | 'Death' | 'Assist';

/** One bookmark's worth: what happened and how long before the snapshot's answer. */
export interface PlayerEvent {
  readonly type: PlayerEventType;
  /** Seconds between the event and the answer that revealed it (0 when no ChampionKill dates it). */
  readonly secondsBefore: number;
}

/**
 * - `baseline`: the first snapshot of a match (also after joining late): remembered, no events.
 * - `counted`: compared with the previous snapshot; `events` may be empty.
 */
export type TrackerUpdate =
  { readonly outcome: 'baseline'; readonly reason: string } | { readonly outcome: 'counted'; readonly events: readonly PlayerEvent[] };

/**
 * How far before the previous answer a ChampionKill may lie and still date a score change: the game
 * can list an event one answer after the scoreboard counts it.
 */
export const EVENT_SLACK_SECONDS = 3;

const SCORE_OF: Record<PlayerEventType, keyof Scores> = { Kill: 'kills', Death: 'deaths', Assist: 'assists' };

export class MatchTracker {
  #previous: GameSnapshot | undefined;
  /** EventIDs already used to date a bookmark, or already there at the baseline. */
  #usedEvents = new Set<number>();

  /** The snapshot the next one is compared with; `undefined` until the first one. */
  get baseline(): GameSnapshot | undefined {
    return this.#previous;
  }

  /** Forgets the match: the next snapshot only sets the baseline. */
  reset(): void {
    this.#previous = undefined;
    this.#usedEvents = new Set();
  }

  update(snapshot: GameSnapshot): TrackerUpdate {
    const previous = this.#previous;
    const newMatch = previous === undefined ? 'first data: what happened before is not bookmarked' : newMatchReason(previous, snapshot);
    this.#previous = snapshot;
    if (previous === undefined || newMatch !== undefined) {
      this.#usedEvents = new Set(snapshot.championKills.map((kill) => kill.id));
      return { outcome: 'baseline', reason: newMatch ?? 'first data' };
    }

    const events: PlayerEvent[] = [];
    for (const type of ['Kill', 'Death', 'Assist'] as const) {
      const increase = snapshot.scores[SCORE_OF[type]] - previous.scores[SCORE_OF[type]];
      if (increase > 0) events.push(...this.#date(type, increase, previous, snapshot));
    }
    events.sort((first, second) => second.secondsBefore - first.secondsBefore);
    return { outcome: 'counted', events };
  }

  /** One event per unit of increase, dated by the newest unused matching ChampionKills, else at the answer. */
  #date(type: PlayerEventType, increase: number, previous: GameSnapshot, snapshot: GameSnapshot): PlayerEvent[] {
    const candidates = snapshot.championKills
      .filter((kill) => !this.#usedEvents.has(kill.id) && involves(type, kill, snapshot.playerNames))
      .filter((kill) => kill.time > previous.gameTime - EVENT_SLACK_SECONDS && kill.time <= snapshot.gameTime + EVENT_SLACK_SECONDS)
      .sort((first, second) => first.time - second.time)
      .slice(-increase);
    for (const kill of candidates) this.#usedEvents.add(kill.id);
    const dated = candidates.map((kill) => ({ type, secondsBefore: Math.max(0, snapshot.gameTime - kill.time) }));
    const undated = Array.from({ length: increase - dated.length }, () => ({ type, secondsBefore: 0 }));
    return [...dated, ...undated];
  }
}

function newMatchReason(previous: GameSnapshot, snapshot: GameSnapshot): string | undefined {
  if (snapshot.roster !== previous.roster) return 'new match: other players or champions';
  if (snapshot.gameTime < previous.gameTime)
    return `new match: game time went back (${previous.gameTime.toFixed(1)} s → ${snapshot.gameTime.toFixed(1)} s)`;
  const before = previous.scores;
  const now = snapshot.scores;
  if (now.kills < before.kills || now.deaths < before.deaths || now.assists < before.assists) {
    return `new match: scores went down (${before.kills}/${before.deaths}/${before.assists} → ${now.kills}/${now.deaths}/${now.assists})`;
  }
  return undefined;
}

function involves(type: PlayerEventType, kill: ChampionKill, names: ReadonlySet<string>): boolean {
  if (type === 'Kill') return names.has(kill.killer);
  if (type === 'Death') return names.has(kill.victim);
  return kill.assisters.some((name) => names.has(name));
}
