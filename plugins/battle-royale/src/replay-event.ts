// One knock or kill file of a replay's `events/` folder: when (milliseconds into the match) and who did
// what to whom, from the base64 JSON in its `data` field.
import { comparablePlayerName } from './player-name.js';
import { jsonInside } from './replay-json.js';

export interface ReplayEvent {
  /** Milliseconds since the match started (`time1`). */
  offsetMs: number;
  /** Who knocked or killed, as `comparablePlayerName` gives it; empty for the zone, a fall, a vehicle. */
  instigator: string;
  victim: string;
  /** On a kill: the victim was already knocked, so the knock was the moment that counted. False on knocks. */
  victimWasKnocked: boolean;
}

export type ReplayEventResult = { ok: true; event: ReplayEvent } | { ok: false; reason: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** `kind` says which flags the file must have: a kill must say whether its victim was knocked before. */
export function parseReplayEvent(bytes: Uint8Array, kind: 'knock' | 'kill'): ReplayEventResult {
  const json = jsonInside(bytes);
  if (!json.ok) return json;
  const { time1: offsetMs, data } = json.value;
  if (typeof offsetMs !== 'number' || !Number.isSafeInteger(offsetMs) || offsetMs < 0) {
    return { ok: false, reason: 'its time1 (milliseconds into the match) is missing or not a non-negative integer' };
  }
  if (typeof data !== 'string' || data.length % 4 !== 0 || !BASE64.test(data)) return { ok: false, reason: 'its data is not base64' };
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
  } catch {
    return { ok: false, reason: 'its data does not decode to JSON' };
  }
  if (typeof payload !== 'object' || payload === null) return { ok: false, reason: 'its data is not a JSON object' };
  const fields = payload as Record<string, unknown>;
  // Some replay tools call the instigator the killer.
  const instigator = fields.instigatorName ?? fields.killerName;
  const { victimName: victim, bDBNO: victimWasKnocked } = fields;
  if (typeof instigator !== 'string' || typeof victim !== 'string')
    return { ok: false, reason: 'its data names no instigator or no victim' };
  if (kind === 'kill' && typeof victimWasKnocked !== 'boolean') return { ok: false, reason: 'its data has no bDBNO flag' };
  return {
    ok: true,
    event: {
      offsetMs,
      instigator: comparablePlayerName(instigator),
      victim: comparablePlayerName(victim),
      victimWasKnocked: kind === 'kill' && victimWasKnocked === true,
    },
  };
}
