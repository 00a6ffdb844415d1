import type { Bookmark } from '@keyframe/core/protocol';
import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { bookmarkTone, durationSeconds, formatSeconds } from '../library/content-format';
import type { WaveformPeaks } from './use-waveform';
import { Waveform } from './Waveform';

export interface TimeRange {
  start: number;
  end: number;
}

interface TimelineProps {
  duration: number;
  currentTime: number;
  bookmarks: readonly Bookmark[];
  peaks: WaveformPeaks | undefined;
  selection: TimeRange | undefined;
  onSeek: (seconds: number) => void;
  onSelect: (range: TimeRange) => void;
}

/** A drag this many pixels long selects a range; a shorter one is a click that seeks. */
const DRAG_THRESHOLD_PX = 4;

/**
 * The video's length as a bar: waveform, bookmarks (labelled badges above, green for good moments,
 * red for deaths), the selected range and the playhead. Click to seek, drag to select; arrow keys seek.
 */
export function Timeline({ duration, currentTime, bookmarks, peaks, selection, onSeek, onSelect }: TimelineProps) {
  const trackRef = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ fromX: number; fromTime: number; moved: boolean }>();
  const length = Math.max(duration, 0.001);
  const percentOf = (seconds: number) => `${(Math.min(Math.max(seconds, 0), length) / length) * 100}%`;

  const timeAt = (clientX: number) => {
    const box = trackRef.current?.getBoundingClientRect();
    if (!box || box.width === 0) return 0;
    return Math.min(Math.max((clientX - box.left) / box.width, 0), 1) * duration;
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ fromX: event.clientX, fromTime: timeAt(event.clientX), moved: false });
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    if (!drag.moved && Math.abs(event.clientX - drag.fromX) < DRAG_THRESHOLD_PX) return;
    if (!drag.moved) setDrag({ ...drag, moved: true });
    const time = timeAt(event.clientX);
    onSelect({ start: Math.min(drag.fromTime, time), end: Math.max(drag.fromTime, time) });
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (drag && !drag.moved) onSeek(timeAt(event.clientX));
    setDrag(undefined);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? 5 : 1;
    const target = {
      ArrowLeft: currentTime - step,
      ArrowRight: currentTime + step,
      Home: 0,
      End: duration,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    onSeek(Math.min(Math.max(target, 0), duration));
  };

  return (
    <div className="timeline" data-testid="timeline">
      <div className="timeline__markers">
        {bookmarks.map((bookmark) => {
          const seconds = durationSeconds(bookmark.time);
          return (
            <button
              key={bookmark.id}
              type="button"
              className={`timeline-marker timeline-marker--${bookmarkTone(bookmark.type)}`}
              style={{ left: percentOf(seconds) }}
              title={`${bookmark.type} at ${formatSeconds(seconds, true)}`}
              onClick={() => onSeek(seconds)}
              data-testid="timeline-bookmark"
              data-type={bookmark.type}
            >
              {bookmark.type}
            </button>
          );
        })}
      </div>
      <div
        ref={trackRef}
        className="timeline__track"
        role="slider"
        tabIndex={0}
        aria-label="Position in the video"
        aria-valuemin={0}
        aria-valuemax={Math.round(duration)}
        aria-valuenow={Math.round(currentTime)}
        aria-valuetext={`${formatSeconds(currentTime)} of ${formatSeconds(duration)}`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => setDrag(undefined)}
        onKeyDown={onKeyDown}
        data-testid="timeline-track"
      >
        {peaks && <Waveform peaks={peaks} />}
        {bookmarks.map((bookmark) => (
          <span
            key={bookmark.id}
            className={`timeline__tick timeline__tick--${bookmarkTone(bookmark.type)}`}
            style={{ left: percentOf(durationSeconds(bookmark.time)) }}
            aria-hidden="true"
          />
        ))}
        {selection && (
          <span
            className="timeline__selection"
            style={{ left: percentOf(selection.start), width: `calc(${percentOf(selection.end)} - ${percentOf(selection.start)})` }}
            data-testid="timeline-selection"
          />
        )}
        <span className="timeline__playhead" style={{ left: percentOf(currentTime) }} aria-hidden="true" />
      </div>
      <div className="timeline__scale" aria-hidden="true">
        <span>0:00</span>
        <span>{formatSeconds(duration)}</span>
      </div>
    </div>
  );
}
