import { BOOKMARK_TYPES, type BookmarkType } from '@keyframe/core/protocol';
import { useId } from 'react';
import { withIn, withOut } from './range-edits';
import type { TimeRange } from './Timeline';
import { formatSeconds } from '../library/content-format';

interface TimelineControlsProps {
  currentTime: number;
  duration: number;
  selection: TimeRange | undefined;
  connected: boolean;
  bookmarkType: BookmarkType;
  onBookmarkTypeChange: (type: BookmarkType) => void;
  onAddBookmark: () => void;
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
  bookmarkType,
  onBookmarkTypeChange,
  onAddBookmark,
  onSelect,
  onAddSegment,
}: TimelineControlsProps) {
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
          onChange={(event) => onBookmarkTypeChange(BOOKMARK_TYPES.find((type) => type === event.target.value) ?? 'Manual')}
        >
          {BOOKMARK_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
        <button type="button" className="button" disabled={!connected} onClick={onAddBookmark} data-testid="add-bookmark">
          Add bookmark at {formatSeconds(currentTime, true)}
        </button>
      </div>
      <div className="video-page__group">
        <button type="button" className="button" onClick={() => onSelect(withIn(selection, currentTime, duration))} data-testid="set-start">
          Set start
        </button>
        <button type="button" className="button" onClick={() => onSelect(withOut(selection, currentTime))} data-testid="set-end">
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
