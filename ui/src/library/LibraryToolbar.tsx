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
      <ToolbarSelect
        className="library__game-filter"
        label="Game"
        value={filter.game}
        options={[['', 'All games'], ...games.map((name): [string, string] => [name, name])]}
        onChange={(game) => onFilterChange({ ...filter, game })}
        testId="library-game-filter"
      />
      <ToolbarSelect
        className="library__sort"
        label="Sort"
        value={view.sort}
        options={Object.entries(LIBRARY_SORTS)}
        onChange={(sort) => isLibrarySort(sort) && onViewChange({ sort })}
        testId="library-sort"
      />
      <ViewToggle label="Group by game" field="groupByGame" view={view} onViewChange={onViewChange} />
      <ViewToggle label="Only favourites" field="onlyFavorites" view={view} onViewChange={onViewChange} />
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

interface ViewToggleProps {
  label: string;
  field: 'groupByGame' | 'onlyFavorites';
  view: LibraryView;
  onViewChange: (change: Partial<LibraryView>) => void;
}

/** A labelled checkbox for one on/off choice of the view. */
function ViewToggle({ label, field, view, onViewChange }: ViewToggleProps) {
  return (
    <label className="library__toggle">
      <input type="checkbox" checked={view[field]} onChange={(event) => onViewChange({ [field]: event.target.checked })} />
      {label}
    </label>
  );
}

interface ToolbarSelectProps {
  className: string;
  /** Read by screen readers; the chosen option says the rest. */
  label: string;
  value: string;
  /** Value and text of each option. */
  options: readonly (readonly [string, string])[];
  onChange: (value: string) => void;
  testId: string;
}

function ToolbarSelect({ className, label, value, options, onChange, testId }: ToolbarSelectProps) {
  const id = useId();
  return (
    <label className={className} htmlFor={id}>
      <span className="visually-hidden">{label}</span>
      <select
        id={id}
        className="input library-field__input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
      >
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
