import type { ContentItem } from '@keyframe/core/protocol';
import { useId, useState } from 'react';
import { connection, useConnectionStatus } from '../connection';
import { useLatestEvent } from '../state/latest-events';
import { ContentCard } from './ContentCard';
import { useContentDialogs } from './ContentDialogs';
import { contentMenuActions } from './content-menu';
import { IMPORT_SECTION_ID, SECTION_CONTENT_TYPE, SECTION_LABEL, type LibrarySection } from './content-types';
import { filterContent, gamesOf, type LibraryFilter } from './library-filter';
import { LibraryToolbar } from './LibraryToolbar';
import './library.css';

const EMPTY_HINT = {
  sessions: 'Recorded sessions appear here. Start a recording, or import videos you already have.',
  buffer: 'Saved replays appear here. Save the replay buffer while recording, or import videos.',
  clips: 'Clips you cut from your videos appear here. Open a video and select a range to make one.',
  highlights: 'Highlights made from your sessions appear here. Choose “Create highlight” on a session.',
} as const satisfies Record<LibrarySection, string>;

export function LibraryPage({ section }: { section: LibrarySection }) {
  const state = useLatestEvent('State');
  const connected = useConnectionStatus() === 'open';
  const [filter, setFilter] = useState<LibraryFilter>({ search: '', game: '' });
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
  const shown = filterContent(sectionItems, { search: filter.search, game: chosenGame });
  const selected = sectionItems.filter((item) => selectedPaths.has(item.filePath));
  const importSectionId = IMPORT_SECTION_ID[section];

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
          <p className="library__summary">{sectionItems.length === 1 ? '1 video' : `${sectionItems.length} videos`}</p>
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
          <p className="library__empty-title">Nothing matches</p>
          <button type="button" className="button" onClick={() => setFilter({ search: '', game: '' })}>
            Clear the search
          </button>
        </div>
      ) : (
        <div className="library__grid" data-testid="content-grid">
          {shown.map((item) => (
            <ContentCard
              key={item.filePath}
              item={item}
              cacheFolder={state.cacheFolder}
              selected={selectedPaths.has(item.filePath)}
              onSelectedChange={(on) => setSelected(item, on)}
              actions={contentMenuActions(item, ask)}
            />
          ))}
        </div>
      )}
      {dialog}
    </section>
  );
}
