import { useId } from 'react';
import type { LibraryFilter } from './library-filter';
import { isLibrarySort, LIBRARY_SORTS } from './library-order';
import type { LibraryView } from './library-view';

interface LibraryToolbarProps {
  label: string;
  filter: LibraryFilter;
  onFilterChange: (filter: LibraryFilter) => void;
  games: readonly string[];
  view: LibraryView;
  onViewChange: (change: Partial<LibraryView>) => void;
  selectedCount: number;
  connected: boolean;
  onSelectAll: () => void;
  onClearSelection: () => void;
  onDeleteSelected: () => void;
}

/** Search, game filter, order and grouping, only favourites, and what to do with the ticked videos. */
export function LibraryToolbar({
  label,
  filter,
  onFilterChange,
  games,
  view,
  onViewChange,
  selectedCount,
  connected,
  onSelectAll,
  onClearSelection,
  onDeleteSelected,
}: LibraryToolbarProps) {
  const searchId = useId();
  const gameId = useId();
  const sortId = useId();
  return (
    <div className="library__toolbar" role="toolbar" aria-label={`${label} tools`}>
      <label className="library__search" htmlFor={searchId}>
        <span className="visually-hidden">Search</span>
        <input
          id={searchId}
          type="search"
          className="input library-field__input"
          placeholder="Search by title or game"
          value={filter.search}
          onChange={(event) => onFilterChange({ ...filter, search: event.target.value })}
          data-testid="library-search"
        />
      </label>
      <label className="library__game-filter" htmlFor={gameId}>
        <span className="visually-hidden">Game</span>
        <select
          id={gameId}
          className="input library-field__input"
          value={filter.game}
          onChange={(event) => onFilterChange({ ...filter, game: event.target.value })}
          data-testid="library-game-filter"
        >
          <option value="">All games</option>
          {games.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="library__sort" htmlFor={sortId}>
        <span className="visually-hidden">Sort</span>
        <select
          id={sortId}
          className="input library-field__input"
          value={view.sort}
          onChange={(event) => isLibrarySort(event.target.value) && onViewChange({ sort: event.target.value })}
          data-testid="library-sort"
        >
          {Object.entries(LIBRARY_SORTS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="library__toggle">
        <input
          type="checkbox"
          checked={view.groupByGame}
          onChange={(event) => onViewChange({ groupByGame: event.target.checked })}
          data-testid="library-group-by-game"
        />
        Group by game
      </label>
      <label className="library__toggle">
        <input
          type="checkbox"
          checked={view.onlyFavorites}
          onChange={(event) => onViewChange({ onlyFavorites: event.target.checked })}
          data-testid="library-only-favorites"
        />
        Only favourites
      </label>
      <div className="library__selection" aria-live="polite">
        {selectedCount > 0 ? (
          <>
            <span className="library__selected-count" data-testid="selected-count">
              {selectedCount} selected
            </span>
            <button type="button" className="button" onClick={onSelectAll}>
              Select all
            </button>
            <button type="button" className="button" onClick={onClearSelection}>
              Clear
            </button>
            <button
              type="button"
              className="button button--danger"
              disabled={!connected}
              onClick={onDeleteSelected}
              data-testid="delete-selected"
            >
              Delete {selectedCount}
            </button>
          </>
        ) : (
          <span className="library__hint">Tick videos to delete several at once</span>
        )}
      </div>
    </div>
  );
}
