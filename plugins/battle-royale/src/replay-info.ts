// `PUBG.replayinfo`: when the match started and who recorded it.
import { comparablePlayerName } from './player-name.js';
import { jsonInside } from './replay-json.js';

export interface ReplayInfo {
  matchStartedAt: Date;
  /** The recording (local) player, as `comparablePlayerName` gives it. */
  player: string;
}

export type ReplayInfoResult = { ok: true; info: ReplayInfo } | { ok: false; reason: string };

export function parseReplayInfo(bytes: Uint8Array): ReplayInfoResult {
  const json = jsonInside(bytes);
  if (!json.ok) return json;
  const { Timestamp: timestamp, RecordUserNickName: nickName } = json.value;
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp <= 0) {
    return { ok: false, reason: 'its Timestamp (match start, Unix milliseconds) is missing or not a positive integer' };
  }
  if (typeof nickName !== 'string' || comparablePlayerName(nickName) === '') {
    return { ok: false, reason: 'its RecordUserNickName (the recording player) is missing or empty' };
  }
  return { ok: true, info: { matchStartedAt: new Date(timestamp), player: comparablePlayerName(nickName) } };
}
