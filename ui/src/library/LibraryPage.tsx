import type { ContentItem } from '@keyframe/core/protocol';
import { useId, useState } from 'react';
import { connection, useConnectionStatus } from '../connection';
import { useLatestEvent } from '../state/latest-events';
import { ContentCard } from './ContentCard';
import { useContentDialogs } from './ContentDialogs';
import { contentMenuActions } from './content-menu';
import { IMPORT_SECTION_ID, SECTION_CONTENT_TYPE, SECTION_LABEL, type LibrarySection } from './content-types';
import { filterContent, gamesOf, type LibraryFilter } from './library-filter';
import { groupByGame, sortContent } from './library-order';
import { useLibraryView } from './library-view';
import { LibraryToolbar } from './LibraryToolbar';
import './library.css';

const EMPTY_HINT = {
  sessions: 'Recorded sessions appear here. Start a recording, or import videos you already have.',
  buffer: 'Saved replays appear here. Save the replay buffer while recording, or import videos.',
  clips: 'Clips you cut from your videos appear here. Open a video and select a range to make one.',
  highlights: 'Highlights made from your sessions appear here. Choose “Create highlight” on a session.',
} as const satisfies Record<LibrarySection, string>;

const videoCount = (count: number) => (count === 1 ? '1 video' : `${count} videos`);

export function LibraryPage({ section }: { section: LibrarySection }) {
  const state = useLatestEvent('State');
  const connected = useConnectionStatus() === 'open';
  const [filter, setFilter] = useState<LibraryFilter>({ search: '', game: '' });
  const [view, changeView] = useLibraryView();
  const [selectedPaths, setSelectedPaths] = useState<ReadonlySet<string>>(new Set());
  const [dialog, ask] = useContentDialogs(() => setSelectedPaths(new Set()));
  const headingId = useId();

  if (!state) {
    return (
      <section className="library library--loading" aria-busy="true" data-testid="library-loading">
        <span className="spinner" aria-hidden="true" />
        <p>Loading the library…</p>
      </section>
    );
  }

  const sectionItems = state.content.filter((item) => item.type === SECTION_CONTENT_TYPE[section]);
  const games = gamesOf(sectionItems);
  // A game whose last video went away no longer filters.
  const chosenGame = games.includes(filter.game) ? filter.game : '';
  const shown = sortContent(filterContent(sectionItems, { search: filter.search, game: chosenGame }, view.onlyFavorites), view.sort);
  const selected = sectionItems.filter((item) => selectedPaths.has(item.filePath));
  const importSectionId = IMPORT_SECTION_ID[section];

  const grid = (items: readonly ContentItem[]) => (
    <div className="library__grid" data-testid="content-grid">
      {items.map((item) => (
        <ContentCard
          key={item.filePath}
          item={item}
          cacheFolder={state.cacheFolder}
          selected={selectedPaths.has(item.filePath)}
          onSelectedChange={(on) => setSelected(item, on)}
          actions={contentMenuActions(item, ask)}
          connected={connected}
        />
      ))}
    </div>
  );

  const setSelected = (item: ContentItem, on: boolean) => {
    const next = new Set(selected.map((each) => each.filePath));
    if (on) next.add(item.filePath);
    else next.delete(item.filePath);
    setSelectedPaths(next);
  };

  return (
    <section className="library" aria-labelledby={headingId} data-testid={`library-${section}`}>
      <header className="library__header">
        <div>
          <h1 className="library__title" id={headingId}>
            {SECTION_LABEL[section]}
          </h1>
          <p className="library__summary">{videoCount(sectionItems.length)}</p>
        </div>
        {importSectionId && (
          <button
            type="button"
            className="button"
            disabled={!connected}
            onClick={() => connection.send('ImportFile', { sectionId: importSectionId })}
            data-testid="import-button"
          >
            Import videos…
          </button>
        )}
      </header>

      {sectionItems.length > 0 && (
        <LibraryToolbar
          label={SECTION_LABEL[section]}
          filter={{ search: filter.search, game: chosenGame }}
          onFilterChange={setFilter}
          games={games}
          view={view}
          onViewChange={changeView}
          selectedCount={selected.length}
          connected={connected}
          onSelectAll={() => setSelectedPaths(new Set(shown.map((item) => item.filePath)))}
          onClearSelection={() => setSelectedPaths(new Set())}
          onDeleteSelected={() => ask({ kind: 'delete', items: selected })}
        />
      )}

      {sectionItems.length === 0 ? (
        <div className="empty library__empty" data-testid="library-empty">
          <p className="library__empty-title">No {SECTION_LABEL[section].toLowerCase()} yet</p>
          <p>{EMPTY_HINT[section]}</p>
        </div>
      ) : shown.length === 0 ? (
        <div className="empty library__empty">
          <p className="library__empty-title">{view.onlyFavorites ? 'No favourites match' : 'Nothing matches'}</p>
          {view.onlyFavorites && <p>Mark a video with its star to keep it here.</p>}
          <button
            type="button"
            className="button"
            onClick={() => {
              setFilter({ search: '', game: '' });
              changeView({ onlyFavorites: false });
            }}
          >
            Show all videos
          </button>
        </div>
      ) : view.groupByGame ? (
        groupByGame(shown, view.sort).map((group) => (
          <section key={group.key} className="library__group" aria-label={group.label} data-testid="library-group" data-game={group.label}>
            <h2 className="library__group-title">
              {group.label} <span className="library__group-count">{videoCount(group.items.length)}</span>
            </h2>
            {grid(group.items)}
          </section>
        ))
      ) : (
        grid(shown)
      )}
      {dialog}
    </section>
  );
}
