import type { ContentItem } from '@keyframe/core/protocol';

export interface LibraryFilter {
  search: string;
  /** Empty for every game. */
  game: string;
}

/** Items whose title, file name or game holds every word of the search, of the chosen game, only favourites if asked. */
export function filterContent(items: readonly ContentItem[], { search, game }: LibraryFilter, onlyFavorites = false): ContentItem[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((item) => {
    if (game && item.game !== game) return false;
    if (onlyFavorites && !item.favorite) return false;
    const haystack = `${item.title} ${item.fileName} ${item.game}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

export function gamesOf(items: readonly ContentItem[]): string[] {
  return [...new Set(items.map((item) => item.game))].sort((a, b) => a.localeCompare(b));
}
