// Test support: the real Dota 2 Game State Integration payloads in ../shared/game-data (see its
// SOURCES.md), and a skip with a reason for when that folder is not there.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The compiled tests run from plugins/arena-game-b/dist/.
export const GAME_DATA_FOLDER = fileURLToPath(new URL('../../../../shared/game-data/arena-game-b/', import.meta.url));

export const MENU_HEARTBEAT = 'dota2-menu-heartbeat.json';
export const PREGAME_PAYLOAD = 'dota2-playing-pregame-oracle.json';
export const EVENTS_BLOCK = 'dota2-events-block.json';
export const SPECTATOR_FILES = ['dota2-spectating-og-vs-nigma-2021.json', 'dota2-spectating-ingame-10-players.json'] as const;
const LOBBY_TO_POSTGAME = 'dota2-playing-lobby-to-postgame.jsonl';

export function hasGameData(): boolean {
  return existsSync(GAME_DATA_FOLDER);
}

/** Skips the running test or hook when the recorded data is absent; mocha's skip takes no reason, so the title carries it. */
export function skipWithoutGameData(context: Mocha.Context): void {
  if (hasGameData()) return;
  const runnable = context.currentTest ?? context.test;
  if (runnable) runnable.title += ` (skipped: recorded Dota 2 payloads not found at ${GAME_DATA_FOLDER})`;
  context.skip();
}

export function readGameDataText(file: string): string {
  return readFileSync(path.join(GAME_DATA_FOLDER, file), 'utf8');
}

export function readGameDataJson(file: string): unknown {
  return JSON.parse(readGameDataText(file));
}

/**
 * `dota2-playing-lobby-to-postgame.jsonl` as sent: 12 bodies, index 0 = line 1 (menu heartbeat, INIT,
 * hero selection, strategy time, map load, pre-game ×4, index 10 GAME_IN_PROGRESS, index 11 POST_GAME).
 */
export function readLobbyToPostgameBodies(): string[] {
  return readGameDataText(LOBBY_TO_POSTGAME)
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/**
 * A real local-player payload with other counters, for the state pairs the recorded data lacks
 * (SOURCES.md: no public capture spans a kill). Only `player.kills/deaths/assists` change.
 */
export function withCounters(body: string, counters: { kills: number; deaths: number; assists: number }): string {
  const payload = JSON.parse(body) as { player: Record<string, unknown> };
  return JSON.stringify({ ...payload, player: { ...payload.player, ...counters } });
}
