// How the library is shown (sort, grouping, only favourites), kept in the browser's localStorage so it
// survives reloads and restarts; one choice for every section. Settings are the service's, not the UI's.
import { useCallback, useState } from 'react';
import { isLibrarySort, type LibrarySort } from './library-order';

export interface LibraryView {
  sort: LibrarySort;
  groupByGame: boolean;
  onlyFavorites: boolean;
}

export const LIBRARY_VIEW_KEY = 'keyframe.library.view';
const DEFAULT_VIEW: LibraryView = { sort: 'newest', groupByGame: false, onlyFavorites: false };

/** The stored view; a missing, damaged or older value falls back field by field to the defaults. */
function readLibraryView(): LibraryView {
  let stored: Partial<Record<keyof LibraryView, unknown>> = {};
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(LIBRARY_VIEW_KEY) ?? '{}');
    if (typeof parsed === 'object' && parsed !== null) stored = parsed;
  } catch {
    // Unreadable: the defaults.
  }
  return {
    sort: isLibrarySort(stored.sort) ? stored.sort : DEFAULT_VIEW.sort,
    groupByGame: typeof stored.groupByGame === 'boolean' ? stored.groupByGame : DEFAULT_VIEW.groupByGame,
    onlyFavorites: typeof stored.onlyFavorites === 'boolean' ? stored.onlyFavorites : DEFAULT_VIEW.onlyFavorites,
  };
}

export function useLibraryView(): [LibraryView, (change: Partial<LibraryView>) => void] {
  const [view, setView] = useState(readLibraryView);
  const change = useCallback((update: Partial<LibraryView>) => {
    setView((current) => {
      const next = { ...current, ...update };
      try {
        localStorage.setItem(LIBRARY_VIEW_KEY, JSON.stringify(next));
      } catch {
        // Storage full or disabled: the choice holds until the page closes.
      }
      return next;
    });
  }, []);
  return [view, change];
}
