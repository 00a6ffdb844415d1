// The real Dota 2 Game State Integration payloads in the game data folder arena-game-b (see its
// SOURCES.md): what each file is. Found, read and skipped for by the test kit's gameData().
import { gameData } from '@keyframe/integration-testkit';

export const recordedData = gameData('arena-game-b', 'recorded Dota 2 payloads');

export const MENU_HEARTBEAT = 'dota2-menu-heartbeat.json';
export const PREGAME_PAYLOAD = 'dota2-playing-pregame-oracle.json';
export const EVENTS_BLOCK = 'dota2-events-block.json';
export const SPECTATOR_FILES = ['dota2-spectating-og-vs-nigma-2021.json', 'dota2-spectating-ingame-10-players.json'] as const;
const LOBBY_TO_POSTGAME = 'dota2-playing-lobby-to-postgame.jsonl';

/**
 * `dota2-playing-lobby-to-postgame.jsonl` as sent: 12 bodies, index 0 = line 1 (menu heartbeat, INIT,
 * hero selection, strategy time, map load, pre-game ×4, index 10 GAME_IN_PROGRESS, index 11 POST_GAME).
 */
export function readLobbyToPostgameBodies(): string[] {
  return recordedData
    .text(LOBBY_TO_POSTGAME)
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
