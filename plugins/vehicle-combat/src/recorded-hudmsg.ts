// The real `/hudmsg` answers in the game data folder vehicle-combat (see its SOURCES.md): what each
// file is. Found, read and skipped for by the test kit's gameData().
import { gameData } from '@keyframe/integration-testkit';

export const recordedData = gameData('vehicle-combat', 'recorded War Thunder /hudmsg answers');

/** German ground battle, ids 65–211; the local player (the capture's author) is `-GFF7- CassualTux`. */
export const GERMAN_MATCH = 'hudmsg-de-ground-full-match-ids65-211.json';
export const GERMAN_PLAYER = 'CassualTux';
/** English air battle, ids 1–143; which player was local is not recorded. */
export const ENGLISH_MATCH = 'hudmsg-en-air-rb-full-poll-ids1-143.json';

export interface RecordedDamage {
  id: number;
  msg: string;
  time: number;
}

export function readRecordedDamage(file: string): RecordedDamage[] {
  return (recordedData.json(file) as { damage: RecordedDamage[] }).damage;
}

export function recordedFiles(): string[] {
  return [
    'hudmsg-de-ground-award-and-kill-out-of-order.json',
    GERMAN_MATCH,
    'hudmsg-de-ground-seq1-id65.json',
    'hudmsg-de-ground-seq2-id66.json',
    'hudmsg-de-ground-seq3-id67-68.json',
    'hudmsg-de-ground-seq4-id71.json',
    'hudmsg-de-ground-single-kill.json',
    'hudmsg-de-ground-two-kills.json',
    'hudmsg-empty.json',
    ENGLISH_MATCH,
  ];
}
