// Test support: the real CS2/CS:GO Game State Integration payloads in ../shared/game-data (see its
// SOURCES.md), and a skip with a reason for when that folder is not there.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The compiled tests run from plugins/tactical-shooter/dist/.
export const GAME_DATA_FOLDER = fileURLToPath(new URL('../../../../shared/game-data/tactical-shooter/', import.meta.url));

export function hasGameData(): boolean {
  return existsSync(GAME_DATA_FOLDER);
}

/** Skips the running test or hook when the recorded data is absent; mocha's skip takes no reason, so the title carries it. */
export function skipWithoutGameData(context: Mocha.Context): void {
  if (hasGameData()) return;
  const runnable = context.currentTest ?? context.test;
  if (runnable) runnable.title += ` (skipped: recorded CS2 payloads not found at ${GAME_DATA_FOLDER})`;
  context.skip();
}

export function readGameDataText(file: string): string {
  return readFileSync(path.join(GAME_DATA_FOLDER, file), 'utf8');
}

export function readGameDataJson(file: string): unknown {
  return JSON.parse(readGameDataText(file));
}

/** `cs2-playing-session.bodies.jsonl`: the 174 game-sent bodies, index 0 = line 1. */
export function readSessionBodies(): unknown[] {
  return readGameDataText('cs2-playing-session.bodies.jsonl')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

export interface LoggedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** `cs2-playing-session.request-log.json`: all 192 requests, including 18 that were not sent by the game. */
export function readRequestLog(): LoggedRequest[] {
  return readGameDataJson('cs2-playing-session.request-log.json') as LoggedRequest[];
}

export const SPECTATOR_FILES = [
  'csgo-spectating-mirage-round9-a-bomb-carried.json',
  'csgo-spectating-mirage-round9-b-bomb-planting.json',
  'csgo-spectating-ancient-nip-vs-navi.json',
  'csgo-spectating-dust2-faze-vs-navi.json',
] as const;
