// Test support: the real `/hudmsg` answers in ../shared/game-data/vehicle-combat (see its SOURCES.md),
// read where they are, and a skip with a reason for when that folder is not there.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The compiled tests run from plugins/vehicle-combat/dist/.
export const GAME_DATA_FOLDER = fileURLToPath(new URL('../../../../shared/game-data/vehicle-combat/', import.meta.url));

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

export function hasGameData(): boolean {
  return existsSync(GAME_DATA_FOLDER);
}

/** Skips the running test or hook when the recorded data is absent; mocha's skip takes no reason, so the title carries it. */
export function skipWithoutGameData(context: Mocha.Context): void {
  if (hasGameData()) return;
  const runnable = context.currentTest ?? context.test;
  if (runnable) runnable.title += ` (skipped: recorded War Thunder /hudmsg answers not found at ${GAME_DATA_FOLDER})`;
  context.skip();
}

export function readGameDataText(file: string): string {
  return readFileSync(path.join(GAME_DATA_FOLDER, file), 'utf8');
}

export function readRecordedDamage(file: string): RecordedDamage[] {
  return (JSON.parse(readGameDataText(file)) as { damage: RecordedDamage[] }).damage;
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
