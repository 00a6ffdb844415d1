// The games the service knows, merged by name: those of integration manifests, the bundled catalog
// (core/data/game-catalog.json) and the user's `games` entries. Sent as `GameList`; the detector
// watches the same list.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { injectable } from 'tsyringe';
import { Type, type Static } from '#typebox';
import { describeProblems, Nullable, type GameEntry, type GameSetting } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { SettingsStore } from '../settings/settings-store.js';

/** A game and the executables that identify it: file names or paths, `*` as a wildcard. */
export interface KnownGame {
  name: string;
  executables: readonly string[];
}

export interface CatalogGame extends KnownGame {
  gameDatabaseId?: number | null;
  icon?: string | null;
}

export const BUNDLED_CATALOG_URL = new URL('../../data/game-catalog.json', import.meta.url);

const BundledCatalog = Type.Object({
  games: Type.Array(
    Type.Object({
      name: Type.String({ minLength: 1 }),
      executables: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
      gameDatabaseId: Type.Optional(Nullable(Type.Integer())),
      icon: Type.Optional(Nullable(Type.String())),
    }),
  ),
});
type BundledCatalog = Static<typeof BundledCatalog>;

/** Reads and checks the bundled catalog; throws with the file and the problem. */
export function loadBundledCatalog(url: URL = BUNDLED_CATALOG_URL): CatalogGame[] {
  const file = fileURLToPath(url);
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const problems = describeProblems(BundledCatalog, parsed);
  if (problems.length > 0) throw new Error(`${file} is not a game catalog: ${problems.join('; ')}`);
  return (parsed as BundledCatalog).games;
}

@injectable()
export class GameCatalog {
  private readonly bundled: readonly CatalogGame[];
  private readonly declared: (() => readonly CatalogGame[])[] = [];

  constructor(
    private readonly settings: SettingsStore,
    logger: Logger,
  ) {
    const log = logger.child('games');
    try {
      this.bundled = loadBundledCatalog();
    } catch (error) {
      // Without the bundled list only declared and user games are detected; the service still works.
      log.error('bundled game catalog unreadable: only integration and user games are known', { error: (error as Error).message });
      this.bundled = [];
    }
  }

  /**
   * Adds games declared elsewhere (integration manifests), read at every use so changes apply at
   * once. Their names win over the bundled and user spellings: integrations find their game by name.
   */
  addSource(source: () => readonly CatalogGame[]): void {
    this.declared.push(source);
  }

  /** The merged catalog, sorted by name: what `GameList` sends and what the detector watches. */
  list(): GameEntry[] {
    return mergeCatalog([...this.declared.map((source) => source()), this.bundled, this.settings.current.games.map(userGame)]);
  }

  /** The catalog name of an executable; a path pattern that matches beats a file name that does. */
  nameFor(executablePath: string): string | undefined {
    let best: { name: string; score: number } | undefined;
    for (const game of this.list()) {
      for (const pattern of game.executables) {
        const score = executableMatch(executablePath, pattern);
        if (score > (best?.score ?? 0)) best = { name: game.name, score };
      }
    }
    return best?.name;
  }
}

const userGame = (game: GameSetting): CatalogGame => ({
  name: game.name,
  executables: game.paths,
  gameDatabaseId: game.gameDatabaseId ?? null,
  icon: game.icon ?? null,
});

const nameKey = (name: string) => name.trim().toLowerCase();
/** One collator for every sort: `localeCompare` with options builds one per comparison (milliseconds per GameList). */
const byName = new Intl.Collator('en', { sensitivity: 'base' });
const normalizePath = (text: string) => text.trim().replaceAll('\\', '/').toLowerCase();

/**
 * Merges lists of games by name (case-insensitive). The first list to name a game gives its
 * spelling, database id and icon (later lists fill in what is missing); executables are the union.
 */
export function mergeCatalog(lists: readonly (readonly CatalogGame[])[]): GameEntry[] {
  const merged = new Map<string, GameEntry>();
  for (const game of lists.flat()) {
    const name = game.name.trim();
    if (!name) continue;
    let entry = merged.get(nameKey(name));
    if (!entry) {
      entry = { name, executables: [], gameDatabaseId: null, icon: null };
      merged.set(nameKey(name), entry);
    }
    entry.gameDatabaseId ??= game.gameDatabaseId ?? null;
    entry.icon ??= game.icon ?? null;
    for (const executable of game.executables) {
      const trimmed = executable.trim();
      if (trimmed && !entry.executables.some((known) => normalizePath(known) === normalizePath(trimmed))) entry.executables.push(trimmed);
    }
  }
  return [...merged.values()].sort((a, b) => byName.compare(a.name, b.name));
}

/**
 * How `pattern` names `executable` (case-insensitive, `\\` and `/` alike): 2 when a pattern with a
 * folder matches the end of the path (a folder pattern ending in `/` matches the files under it),
 * 1 when a bare file name matches the file name, 0 when it does not match. `*` matches any text.
 */
export function executableMatch(executable: string, pattern: string): 0 | 1 | 2 {
  return executableMatcher(pattern)(normalizeExecutable(executable));
}

/** An executable path as matchers take it: forward slashes, lower case. */
export const normalizeExecutable = normalizePath;

type Matcher = (normalizedExecutable: string) => 0 | 1 | 2;
const matchers = new Map<string, Matcher>();

/** `executableMatch` for one pattern, compiled once: the detector runs every pattern against every process. */
export function executableMatcher(pattern: string): Matcher {
  let matcher = matchers.get(pattern);
  if (matcher) return matcher;
  const wanted = normalizePath(pattern);
  const body = wanted
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  if (!wanted) {
    matcher = () => 0;
  } else if (wanted.includes('/')) {
    const expression = new RegExp(`(?:^|/)${body}${wanted.endsWith('/') ? '' : '$'}`, 's');
    matcher = (executable) => (expression.test(executable) ? 2 : 0);
  } else {
    const expression = new RegExp(`^${body}$`, 's');
    matcher = (executable) => (expression.test(executable.slice(executable.lastIndexOf('/') + 1)) ? 1 : 0);
  }
  // User patterns change rarely; the cap only keeps a long settings history bounded.
  if (matchers.size > 5000) matchers.clear();
  matchers.set(pattern, matcher);
  return matcher;
}

/**
 * The user's entry for a game: one whose paths match the executable (the closest match wins),
 * else one with the game's name (case-insensitive).
 */
export function findGameSetting(
  games: readonly GameSetting[],
  game: { name: string; executablePath?: string | undefined },
): GameSetting | undefined {
  if (game.executablePath) {
    let best: { entry: GameSetting; score: number } | undefined;
    for (const entry of games) {
      for (const pattern of entry.paths) {
        const score = executableMatch(game.executablePath, pattern);
        if (score > (best?.score ?? 0)) best = { entry, score };
      }
    }
    if (best) return best.entry;
  }
  return games.find((entry) => nameKey(entry.name) === nameKey(game.name));
}
