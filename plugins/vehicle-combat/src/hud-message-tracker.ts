// Follows War Thunder's `/hudmsg` answers: which damage messages are new, and the ids to ask from next.
// Pure: one response body in, its new messages out; never throws.
//
// A body is `{"events": [{id, …}], "damage": [{"id": 104, "msg": "…", "time": 274, …}]}`; `time` is
// the battle clock in whole seconds. The first usable body only sets the baseline (messages the game
// still holds from before we listened). Ids only grow while the game runs, but a body whose ids all
// lie below the ones already seen means the game numbers from 1 again: a new baseline, no messages.

export interface HudMessage {
  readonly id: number;
  readonly text: string;
  /** Seconds on the battle clock, when the game gave a usable `time`. */
  readonly gameSeconds: number | undefined;
}

/** The newest ids seen: what `lastEvt` and `lastDmg` ask the game to continue from. */
export interface HudCursor {
  readonly lastEvt: number;
  readonly lastDmg: number;
}

/**
 * - `malformed`: not a `/hudmsg` body: ignored, nothing changes.
 * - `baseline`: the first usable body, or ids that start again: cursor moved, no messages.
 * - `messages`: compared with the cursor; `messages` (possibly none) are the new ones, oldest first.
 */
export type HudUpdate =
  | { readonly outcome: 'malformed'; readonly reason: string }
  | { readonly outcome: 'baseline'; readonly reason: string }
  | { readonly outcome: 'messages'; readonly messages: readonly HudMessage[] };

interface HudBody {
  eventIds: number[];
  /** Every damage entry with a usable id; `text` undefined when its `msg` is not a string. */
  damage: Array<{ id: number; text: string | undefined; gameSeconds: number | undefined }>;
}

const START: HudCursor = { lastEvt: 0, lastDmg: 0 };

export class HudMessageTracker {
  #cursor: HudCursor | undefined;

  /** Where the next request continues from; from the start until a baseline is taken. */
  get cursor(): HudCursor {
    return this.#cursor ?? START;
  }

  /** Forgets everything: the next usable body is a baseline again. */
  reset(): void {
    this.#cursor = undefined;
  }

  update(body: string): HudUpdate {
    const parsed = readHudBody(body);
    if (typeof parsed === 'string') return { outcome: 'malformed', reason: parsed };
    const newestDamage = maxOf(parsed.damage.map((entry) => entry.id));
    const newestEvent = maxOf(parsed.eventIds);
    const previous = this.#cursor;
    if (previous === undefined) {
      this.#cursor = { lastEvt: newestEvent ?? 0, lastDmg: newestDamage ?? 0 };
      return { outcome: 'baseline', reason: `first answer: ${parsed.damage.length} messages from before we listened` };
    }
    if (newestDamage !== undefined && newestDamage < previous.lastDmg) {
      this.#cursor = { lastEvt: newestEvent ?? 0, lastDmg: newestDamage };
      return { outcome: 'baseline', reason: `ids start again (${newestDamage} after ${previous.lastDmg}): a new game session` };
    }
    this.#cursor = {
      lastEvt: Math.max(previous.lastEvt, newestEvent ?? 0),
      lastDmg: Math.max(previous.lastDmg, newestDamage ?? 0),
    };
    const messages = parsed.damage
      .filter((entry) => entry.id > previous.lastDmg)
      .sort((first, second) => first.id - second.id)
      .flatMap(({ id, text, gameSeconds }) => (text === undefined ? [] : [{ id, text, gameSeconds }]));
    return { outcome: 'messages', messages };
  }
}

function readHudBody(body: string): HudBody | string {
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    return 'not JSON';
  }
  if (!isObject(payload) || !Array.isArray(payload.damage)) return 'no damage list';
  const damage: HudBody['damage'] = [];
  for (const entry of payload.damage) {
    if (!isObject(entry) || !isId(entry.id)) continue;
    const { id, msg, time } = entry;
    damage.push({
      id,
      text: typeof msg === 'string' ? msg : undefined,
      gameSeconds: typeof time === 'number' && Number.isFinite(time) && time >= 0 ? time : undefined,
    });
  }
  const events: unknown[] = Array.isArray(payload.events) ? payload.events : [];
  const eventIds = events.flatMap((entry) => (isObject(entry) && isId(entry.id) ? [entry.id] : []));
  return { eventIds, damage };
}

function maxOf(values: readonly number[]): number | undefined {
  return values.length === 0 ? undefined : Math.max(...values);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
