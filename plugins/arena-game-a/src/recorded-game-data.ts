// Test support: the real Live Client Data answers in ../shared/game-data/arena-game-a (see its
// SOURCES.md), read from there at run time, and a skip with a reason for when that folder is absent.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The compiled tests run from plugins/arena-game-a/dist/.
export const GAME_DATA_FOLDER = fileURLToPath(new URL('../../../../shared/game-data/arena-game-a/', import.meta.url));

/** A finished 5v5 game played as "mikehpoo" (Lux), older client: summoner names, no Riot IDs. */
export const PLAYING_FILE = 'lol-allgamedata-playing-lux-28min.json';
/** A zh-CN client spectating: `activePlayer` is the game's spectator error. */
export const SPECTATING_FILE = 'lol-allgamedata-spectating-zh-cn.json';
/** The `events` object of the playing file, as `/liveclientdata/eventdata` returns it. */
export const EVENT_DATA_FILE = 'lol-eventdata-from-playing-allgamedata.json';

export function hasGameData(): boolean {
  return existsSync(GAME_DATA_FOLDER);
}

/** Skips the running test or hook when the recorded data is absent; mocha's skip takes no reason, so the title carries it. */
export function skipWithoutGameData(context: Mocha.Context): void {
  if (hasGameData()) return;
  const runnable = context.currentTest ?? context.test;
  if (runnable) runnable.title += ` (skipped: recorded League of Legends answers not found at ${GAME_DATA_FOLDER})`;
  context.skip();
}

export function readGameDataText(file: string): string {
  return readFileSync(path.join(GAME_DATA_FOLDER, file), 'utf8');
}
