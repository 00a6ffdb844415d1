import type { Bookmark } from '@keyframe/core/protocol';
import { useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { bookmarkTone, durationSeconds, formatSeconds } from '../library/content-format';
import { FrameImage } from './FrameImage';
import { scaleTicks } from './timeline-scale';
import { TimeHandle } from './TimeHandle';
import { useFramePreview } from './use-frame-preview';
import { useTimelineZoom, ZOOM_BUTTON_FACTOR } from './use-timeline-zoom';
import type { WaveformPeaks } from './use-waveform';
import { Waveform } from './Waveform';

export interface TimeRange {
  start: number;
  end: number;
}

interface TimelineProps {
  duration: number;
  currentTime: number;
  /** Frames per second: handles and drags land on frames. */
  fps: number;
  bookmarks: readonly Bookmark[];
  peaks: WaveformPeaks | undefined;
  selection: TimeRange | undefined;
  /** The video's file, for the frames shown while hovering. */
  filePath: string;
  onSeek: (seconds: number) => void;
  onSelect: (range: TimeRange) => void;
  /** Controls shown at the end of the timeline's toolbar. */
  children?: ReactNode;
}

/** A drag this many pixels long selects a range; a shorter one is a click that seeks. */
const DRAG_THRESHOLD_PX = 4;
/** Half the hover preview's width (a 160 px frame and its frame). */
const PREVIEW_HALF_WIDTH_PX = 85;
/** The playhead's arrow keys: seconds per press, and with Shift. */
const SEEK_STEP = 1;
const SEEK_BIG_STEP = 5;
/** The selection handles move one frame per arrow press; with Shift, a second. */
const HANDLE_BIG_STEP = 1;

/**
 * The video's length as a bar: waveform, bookmarks (labelled badges above, green for good moments,
 * red for deaths), the selected range with a handle at each end, the playhead and a time scale.
 * Click to seek, drag to select, drag a handle to trim; zoom to work to the frame; hover for a frame.
 */
export function Timeline({ duration, currentTime, fps, bookmarks, peaks, selection, filePath, onSeek, onSelect, children }: TimelineProps) {
  const timelineRef = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ fromX: number; fromTime: number; moved: boolean }>();
  const [hover, setHover] = useState<{ seconds: number; left: number; top: number }>();
  const preview = useFramePreview(filePath);
  const length = Math.max(duration, 0.001);
  const share = (seconds: number) => Math.min(Math.max(seconds, 0), length) / length;
  const percentOf = (seconds: number) => `${share(seconds) * 100}%`;
  const zoom = useTimelineZoom(duration, share(currentTime));
  const onFrame = (seconds: number) => Math.min(Math.round(seconds * fps) / fps, duration);

  const timeAt = (clientX: number) => {
    const box = zoom.trackRef.current?.getBoundingClientRect();
    if (!box || box.width === 0) return 0;
    return onFrame(Math.min(Math.max((clientX - box.left) / box.width, 0), 1) * duration);
  };

  const showFrameAt = (clientX: number) => {
    const outer = timelineRef.current?.getBoundingClientRect();
    const track = zoom.trackRef.current?.getBoundingClientRect();
    if (!outer || !track) return;
    // The end of the last frame has no frame of its own.
    const seconds = Math.min(timeAt(clientX), Math.max(0, duration - 1 / fps));
    // Kept inside the timeline's width: the preview never pushes the page sideways.
    const half = Math.min(PREVIEW_HALF_WIDTH_PX, outer.width / 2);
    setHover({ seconds, left: Math.min(Math.max(clientX - outer.left, half), outer.width - half), top: track.top - outer.top });
    preview.request(seconds);
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ fromX: event.clientX, fromTime: timeAt(event.clientX), moved: false });
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse') showFrameAt(event.clientX);
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

  const frame = 1 / fps;
  const secondsFrom = zoom.visible.from * duration;
  const secondsTo = zoom.visible.to * duration;
  const ticks = scaleTicks(duration, zoom.trackWidth, secondsFrom, secondsTo);
  // Trimming shows the frame at the handle: the player seeks with it.
  const trim = (range: TimeRange, shown: number) => {
    onSelect(range);
    onSeek(shown);
  };

  return (
    <div className="timeline" ref={timelineRef} data-testid="timeline">
      <div className="timeline__toolbar">
        <span className="timeline__readout" data-testid="playhead-time">
          {formatSeconds(currentTime, true)} / {formatSeconds(duration)}
        </span>
        <div className="timeline__group" role="group" aria-label="Zoom">
          <button
            type="button"
            className="icon-button"
            aria-label="Zoom out"
            disabled={zoom.zoom <= 1}
            onClick={() => zoom.zoomBy(1 / ZOOM_BUTTON_FACTOR)}
            data-testid="zoom-out"
          >
            <span aria-hidden="true">−</span>
          </button>
          <span className="timeline__zoom" data-testid="zoom-level">
            {zoom.zoom < 10 ? zoom.zoom.toFixed(1).replace(/\.0$/, '') : Math.round(zoom.zoom)}×
          </span>
          <button
            type="button"
            className="icon-button"
            aria-label="Zoom in"
            disabled={zoom.zoom >= zoom.maxZoom}
            onClick={() => zoom.zoomBy(ZOOM_BUTTON_FACTOR)}
            data-testid="zoom-in"
          >
            <span aria-hidden="true">+</span>
          </button>
          <button type="button" className="button button--small" disabled={zoom.zoom <= 1} onClick={() => zoom.zoomBy(1 / zoom.zoom)}>
            Fit
          </button>
        </div>
        {children}
      </div>
      <div className="timeline__viewport" ref={zoom.viewportRef} onScroll={zoom.onScroll} data-testid="timeline-viewport">
        <div className="timeline__content" style={{ width: `${zoom.zoom * 100}%` }}>
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
            ref={zoom.trackRef}
            className="timeline__track"
            onPointerDownCapture={() => setHover(undefined)}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={() => setDrag(undefined)}
            onPointerLeave={() => setHover(undefined)}
            data-testid="timeline-track"
          >
            {peaks && <Waveform peaks={peaks} from={zoom.visible.from} to={zoom.visible.to} />}
            {bookmarks.map((bookmark) => (
              <span
                key={bookmark.id}
                className={`timeline__tick timeline__tick--${bookmarkTone(bookmark.type)}`}
                style={{ left: percentOf(durationSeconds(bookmark.time)) }}
                aria-hidden="true"
              />
            ))}
            {selection && (
              <>
                <span
                  className="timeline__selection"
                  style={{ left: percentOf(selection.start), width: `calc(${percentOf(selection.end)} - ${percentOf(selection.start)})` }}
                  data-testid="timeline-selection"
                />
                <TimeHandle
                  label="Start of the range"
                  seconds={selection.start}
                  min={0}
                  max={Math.max(0, selection.end - frame)}
                  step={frame}
                  bigStep={HANDLE_BIG_STEP}
                  timeAt={timeAt}
                  onChange={(start) => trim({ ...selection, start: onFrame(start) }, onFrame(start))}
                  left={percentOf(selection.start)}
                  className="timeline__handle timeline__handle--start"
                  testId="trim-start"
                />
                <TimeHandle
                  label="End of the range"
                  seconds={selection.end}
                  min={Math.min(duration, selection.start + frame)}
                  max={duration}
                  step={frame}
                  bigStep={HANDLE_BIG_STEP}
                  timeAt={timeAt}
                  onChange={(end) => trim({ ...selection, end: onFrame(end) }, onFrame(end))}
                  left={percentOf(selection.end)}
                  className="timeline__handle timeline__handle--end"
                  testId="trim-end"
                />
              </>
            )}
            <TimeHandle
              label="Position in the video"
              seconds={currentTime}
              min={0}
              max={duration}
              step={SEEK_STEP}
              bigStep={SEEK_BIG_STEP}
              timeAt={timeAt}
              onChange={onSeek}
              left={percentOf(currentTime)}
              className="timeline__playhead"
              testId="playhead"
            />
          </div>
          <div className="timeline__scale" aria-hidden="true" data-testid="timeline-scale">
            {ticks.map((tick) => (
              <span key={tick.seconds} className="timeline__label" style={{ left: percentOf(tick.seconds) }}>
                {tick.label}
              </span>
            ))}
          </div>
        </div>
      </div>
      {hover && preview.shown && (
        <div className="timeline__preview" style={{ left: hover.left, top: hover.top }} data-testid="timeline-preview">
          <FrameImage
            image={preview.shown.image}
            seconds={preview.shown.seconds}
            className="timeline__preview-frame"
            testId="timeline-preview-frame"
          />
          <span className="timeline__preview-time">{formatSeconds(hover.seconds, true)}</span>
        </div>
      )}
    </div>
  );
}
