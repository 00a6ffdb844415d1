import { BOOKMARK_TYPES, type BookmarkType } from '@keyframe/core/protocol';
import { useId, useState } from 'react';
import { formatSeconds } from '../library/content-format';
import type { TimeRange } from './Timeline';

interface TimelineControlsProps {
  currentTime: number;
  duration: number;
  selection: TimeRange | undefined;
  connected: boolean;
  onAddBookmark: (type: BookmarkType) => void;
  onSelect: (range: TimeRange) => void;
  onAddSegment: (range: TimeRange) => void;
}

/** A range shorter than this is not worth a clip segment. */
const SHORTEST_SEGMENT_SECONDS = 0.1;

/** Below the timeline: a bookmark of a chosen type at the current position, and the range to clip. */
export function TimelineControls({
  currentTime,
  duration,
  selection,
  connected,
  onAddBookmark,
  onSelect,
  onAddSegment,
}: TimelineControlsProps) {
  const [bookmarkType, setBookmarkType] = useState<BookmarkType>('Manual');
  const typeId = useId();
  const usable = selection !== undefined && selection.end - selection.start >= SHORTEST_SEGMENT_SECONDS;
  return (
    <div className="video-page__controls" role="toolbar" aria-label="Bookmarks and selection">
      <div className="video-page__group">
        <label className="visually-hidden" htmlFor={typeId}>
          Bookmark type
        </label>
        <select
          id={typeId}
          className="input library-field__input video-page__type"
          value={bookmarkType}
          onChange={(event) => setBookmarkType(BOOKMARK_TYPES.find((type) => type === event.target.value) ?? 'Manual')}
        >
          {BOOKMARK_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button"
          disabled={!connected}
          onClick={() => onAddBookmark(bookmarkType)}
          data-testid="add-bookmark"
        >
          Add bookmark at {formatSeconds(currentTime, true)}
        </button>
      </div>
      <div className="video-page__group">
        <button
          type="button"
          className="button"
          onClick={() => onSelect({ start: currentTime, end: Math.max(currentTime, selection?.end ?? duration) })}
          data-testid="set-start"
        >
          Set start
        </button>
        <button
          type="button"
          className="button"
          onClick={() => onSelect({ start: Math.min(currentTime, selection?.start ?? 0), end: currentTime })}
          data-testid="set-end"
        >
          Set end
        </button>
        <span className="video-page__selection" data-testid="selection-label">
          {selection ? `${formatSeconds(selection.start, true)} – ${formatSeconds(selection.end, true)}` : 'No range selected'}
        </span>
        <button
          type="button"
          className="button button--primary"
          disabled={!usable}
          onClick={() => selection && onAddSegment(selection)}
          data-testid="add-segment"
        >
          Add to clip
        </button>
      </div>
    </div>
  );
}
