// Reads one answer of League of Legends' Live Client Data API (`/liveclientdata/allgamedata`):
// who the local player is, their scores, and the champion kills of the match. Pure; never throws.

/** The local player's scoreboard counters. */
export interface Scores {
  readonly kills: number;
  readonly deaths: number;
  readonly assists: number;
}

/** One `ChampionKill` of `events.Events`; names as the game writes them (summoner name or Riot ID game name). */
export interface ChampionKill {
  readonly id: number;
  /** Seconds of game time. */
  readonly time: number;
  readonly killer: string;
  readonly victim: string;
  readonly assisters: readonly string[];
}

/** What one answer says while the local player is in a match. */
export interface GameSnapshot {
  /** `gameData.gameTime`: seconds of game time when the game answered. */
  readonly gameTime: number;
  readonly gameMode: string | undefined;
  /** Every name the local player goes by in this answer (Riot ID, its game name, summoner name). */
  readonly playerNames: ReadonlySet<string>;
  readonly scores: Scores;
  /** The players and their champions: it changes only when the match does. */
  readonly roster: string;
  readonly championKills: readonly ChampionKill[];
}

/**
 * - `playing`: the local player's data.
 * - `spectating`: the game answers, but there is no local player (spectator mode or a replay).
 * - `unreadable`: not the shape above; `reason` says what is wrong (never the body: it names players).
 */
export type AllGameDataReading =
  | { readonly kind: 'playing'; readonly snapshot: GameSnapshot }
  | { readonly kind: 'spectating' }
  | { readonly kind: 'unreadable'; readonly reason: string };

type JsonObject = Record<string, unknown>;

export function readAllGameData(body: string): AllGameDataReading {
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    return unreadable('not JSON');
  }
  if (!isObject(payload)) return unreadable('not a JSON object');

  const { activePlayer, allPlayers, gameData } = payload;
  if (!isObject(activePlayer)) return unreadable('no activePlayer');
  // The game answers `{"error": "Spectator mode doesn't currently support this feature"}` when no one is the local player.
  if (typeof activePlayer.error === 'string') return { kind: 'spectating' };
  if (!Array.isArray(allPlayers) || !allPlayers.every(isObject)) return unreadable('allPlayers is not a list of players');
  if (!isObject(gameData) || !isGameTime(gameData.gameTime)) return unreadable('gameData.gameTime is not a time');

  const player = findActivePlayer(activePlayer, allPlayers);
  if (player === undefined) return unreadable('the active player is not in allPlayers');
  const scores = readScores(player.scores);
  if (scores === undefined) return unreadable("the active player's scores are not counts");

  return {
    kind: 'playing',
    snapshot: {
      gameTime: gameData.gameTime,
      gameMode: typeof gameData.gameMode === 'string' ? gameData.gameMode : undefined,
      playerNames: namesOf(activePlayer, player),
      scores,
      roster: rosterOf(allPlayers),
      championKills: readChampionKills(payload.events),
    },
  };
}

/** The active player's entry in `allPlayers`: by `riotId`, falling back to `summonerName`. */
function findActivePlayer(activePlayer: JsonObject, allPlayers: readonly JsonObject[]): JsonObject | undefined {
  const riotId = nonEmptyText(activePlayer.riotId);
  const summonerName = nonEmptyText(activePlayer.summonerName);
  if (riotId !== undefined) {
    const byRiotId = allPlayers.find((player) => player.riotId === riotId || composedRiotId(player) === riotId);
    if (byRiotId !== undefined) return byRiotId;
  }
  const name = summonerName ?? riotId;
  if (name === undefined) return undefined;
  // Some clients name the active player `name#tag` in activePlayer.summonerName but `name` in allPlayers.
  return allPlayers.find((player) => player.summonerName === name || player.riotId === name || composedRiotId(player) === name);
}

function composedRiotId(player: JsonObject): string | undefined {
  const gameName = nonEmptyText(player.riotIdGameName);
  const tagLine = nonEmptyText(player.riotIdTagLine);
  return gameName !== undefined && tagLine !== undefined ? `${gameName}#${tagLine}` : undefined;
}

/** Events name players by summoner name in older clients and by Riot ID game name in newer ones. */
function namesOf(...entries: readonly JsonObject[]): ReadonlySet<string> {
  const names = new Set<string>();
  for (const entry of entries) {
    for (const value of [entry.riotId, entry.riotIdGameName, entry.summonerName, composedRiotId(entry)]) {
      const name = nonEmptyText(value);
      if (name !== undefined) names.add(name);
    }
  }
  return names;
}

function readScores(value: unknown): Scores | undefined {
  if (!isObject(value)) return undefined;
  const { kills, deaths, assists } = value;
  if (!isCount(kills) || !isCount(deaths) || !isCount(assists)) return undefined;
  return { kills, deaths, assists };
}

function rosterOf(allPlayers: readonly JsonObject[]): string {
  return allPlayers
    .map((player) => `${String(player.riotId ?? player.summonerName)}:${String(player.rawChampionName ?? player.championName)}`)
    .sort()
    .join('\n');
}

/** The well-formed `ChampionKill` events; anything else in the list is skipped, never fatal. */
function readChampionKills(events: unknown): ChampionKill[] {
  if (!isObject(events) || !Array.isArray(events.Events)) return [];
  const kills: ChampionKill[] = [];
  for (const event of events.Events) {
    if (!isObject(event) || event.EventName !== 'ChampionKill') continue;
    const { EventID: id, EventTime: time, KillerName: killer, VictimName: victim, Assisters: assisters = [] } = event;
    if (!isCount(id) || !isGameTime(time) || typeof killer !== 'string' || typeof victim !== 'string') continue;
    if (!Array.isArray(assisters) || !assisters.every((name) => typeof name === 'string')) continue;
    kills.push({ id, time, killer, victim, assisters });
  }
  return kills;
}

function unreadable(reason: string): AllGameDataReading {
  return { kind: 'unreadable', reason };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isGameTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
