import type { Bookmark } from '@keyframe/core/protocol';
import { bookmarkTone, durationSeconds, formatSeconds } from '../library/content-format';

interface BookmarkListProps {
  bookmarks: readonly Bookmark[];
  onSeek: (seconds: number) => void;
  onDelete: (bookmark: Bookmark) => void;
  disabled: boolean;
}

/** The bookmarks in time order: jump to one, or delete it. */
export function BookmarkList({ bookmarks, onSeek, onDelete, disabled }: BookmarkListProps) {
  if (bookmarks.length === 0) {
    return (
      <p className="video-page__muted" data-testid="no-bookmarks">
        No bookmarks yet. Add one at the current position.
      </p>
    );
  }
  return (
    <ul className="bookmark-list" data-testid="bookmark-list">
      {bookmarks.map((bookmark) => {
        const seconds = durationSeconds(bookmark.time);
        return (
          <li key={bookmark.id} className="bookmark-list__item" data-testid="bookmark-row" data-type={bookmark.type}>
            <button type="button" className="bookmark-list__jump" onClick={() => onSeek(seconds)}>
              <span className={`bookmark-badge bookmark-badge--${bookmarkTone(bookmark.type)}`}>{bookmark.type}</span>
              {bookmark.subtype && <span className="video-page__muted">{bookmark.subtype}</span>}
              <span className="bookmark-list__time">{formatSeconds(seconds, true)}</span>
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={`Delete the ${bookmark.type} bookmark at ${formatSeconds(seconds, true)}`}
              disabled={disabled}
              onClick={() => onDelete(bookmark)}
              data-testid="delete-bookmark"
            >
              <span aria-hidden="true">×</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
