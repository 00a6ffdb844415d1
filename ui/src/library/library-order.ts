// The order the library lists items in, and their grouping by game: pure functions of the items.
import type { ContentItem } from '@keyframe/core/protocol';
import { durationSeconds } from './content-format';

export const LIBRARY_SORTS = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  largest: 'Largest first',
  smallest: 'Smallest first',
  longest: 'Longest first',
  shortest: 'Shortest first',
  'game-a-z': 'Game, A to Z',
  'game-z-a': 'Game, Z to A',
} as const;
export type LibrarySort = keyof typeof LIBRARY_SORTS;

export const isLibrarySort = (value: unknown): value is LibrarySort => typeof value === 'string' && Object.hasOwn(LIBRARY_SORTS, value);

/**
 * The game names the service gives videos of no game: manual (desktop) recordings, imports, and the
 * reference's imports. They are listed under "Other", after every game.
 */
const NO_GAME_NAMES = new Set(['', 'manual recording', 'imported', 'unknown']);
export const OTHER_GROUP_LABEL = 'Other';

const hasGame = (item: ContentItem) => !NO_GAME_NAMES.has(item.game.trim().toLowerCase());
const createdMs = (item: ContentItem) => Date.parse(item.createdAt) || 0;
const byGame = (a: ContentItem, b: ContentItem) => a.game.localeCompare(b.game, undefined, { sensitivity: 'base' });
type Compare = (a: ContentItem, b: ContentItem) => number;

const COMPARE: Record<LibrarySort, Compare> = {
  newest: (a, b) => createdMs(b) - createdMs(a),
  oldest: (a, b) => createdMs(a) - createdMs(b),
  largest: (a, b) => b.fileSizeKb - a.fileSizeKb,
  smallest: (a, b) => a.fileSizeKb - b.fileSizeKb,
  longest: (a, b) => durationSeconds(b.duration) - durationSeconds(a.duration),
  shortest: (a, b) => durationSeconds(a.duration) - durationSeconds(b.duration),
  // Videos of no game come after every game, whichever way games are sorted.
  'game-a-z': (a, b) => Number(!hasGame(a)) - Number(!hasGame(b)) || byGame(a, b),
  'game-z-a': (a, b) => Number(!hasGame(a)) - Number(!hasGame(b)) || byGame(b, a),
};

/** The items in `sort` order; ties newest first, then by file path, so the order never depends on the input's. */
export function sortContent(items: readonly ContentItem[], sort: LibrarySort): ContentItem[] {
  return [...items].sort((a, b) => COMPARE[sort](a, b) || COMPARE.newest(a, b) || a.filePath.localeCompare(b.filePath));
}

export interface GameGroup {
  /** Unique among the groups (a game may be called "Other"). */
  key: string;
  /** The game's name, or "Other" for videos of no game. */
  label: string;
  items: ContentItem[];
}

/**
 * The items by game, each group in `sort` order: games A to Z (Z to A when sorting by game that way),
 * videos of no game in one "Other" group last.
 */
export function groupByGame(items: readonly ContentItem[], sort: LibrarySort): GameGroup[] {
  const groups = new Map<string, GameGroup>();
  for (const item of sortContent(items, sort)) {
    const label = hasGame(item) ? item.game : OTHER_GROUP_LABEL;
    const key = hasGame(item) ? `game:${item.game}` : 'other';
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, label, items: [] }));
    group.items.push(item);
  }
  const gameOrder = sort === 'game-z-a' ? COMPARE['game-z-a'] : COMPARE['game-a-z'];
  return [...groups.values()].sort((a, b) => gameOrder(a.items[0]!, b.items[0]!));
}
