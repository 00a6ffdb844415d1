// The real CS2/CS:GO Game State Integration payloads in the game data folder tactical-shooter (see its
// SOURCES.md): what each file is. Found, read and skipped for by the test kit's gameData().
import { gameData } from '@keyframe/integration-testkit';

export const recordedData = gameData('tactical-shooter', 'recorded CS2 payloads');

/** `cs2-playing-session.bodies.jsonl`: the 174 game-sent bodies, index 0 = line 1. */
export function readSessionBodies(): unknown[] {
  return recordedData
    .text('cs2-playing-session.bodies.jsonl')
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
  return recordedData.json('cs2-playing-session.request-log.json') as LoggedRequest[];
}

export const SPECTATOR_FILES = [
  'csgo-spectating-mirage-round9-a-bomb-carried.json',
  'csgo-spectating-mirage-round9-b-bomb-planting.json',
  'csgo-spectating-ancient-nip-vs-navi.json',
  'csgo-spectating-dust2-faze-vs-navi.json',
] as const;
