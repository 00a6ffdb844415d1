import { useState, type KeyboardEvent, type PointerEvent } from 'react';
import { formatSeconds } from '../library/content-format';

interface TimeHandleProps {
  label: string;
  seconds: number;
  min: number;
  max: number;
  /** Seconds an arrow key moves it; Shift + arrow moves `bigStep`. */
  step: number;
  bigStep: number;
  /** The time under a pointer at `clientX` on the track. */
  timeAt: (clientX: number) => number;
  onChange: (seconds: number) => void;
  /** Where it sits on the track, as a CSS length (a percentage of the track). */
  left: string;
  className: string;
  testId: string;
}

/**
 * A point on the timeline that the mouse drags and the keyboard moves (a focusable slider): the
 * playhead, or an end of the selected range. It takes its own pointer and keys, so the track under
 * it neither seeks nor starts a new range.
 */
export function TimeHandle({ label, seconds, min, max, step, bigStep, timeAt, onChange, left, className, testId }: TimeHandleProps) {
  const [dragging, setDragging] = useState(false);
  const clamp = (value: number) => Math.min(Math.max(value, min), max);

  const onPointerDown = (event: PointerEvent<HTMLSpanElement>) => {
    if (event.button !== 0) return;
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    setDragging(true);
  };
  const onPointerMove = (event: PointerEvent<HTMLSpanElement>) => {
    if (!dragging) return;
    event.stopPropagation();
    onChange(clamp(timeAt(event.clientX)));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLSpanElement>) => {
    const move = event.shiftKey ? bigStep : step;
    const target = {
      ArrowLeft: seconds - move,
      ArrowDown: seconds - move,
      ArrowRight: seconds + move,
      ArrowUp: seconds + move,
      PageDown: seconds - bigStep,
      PageUp: seconds + bigStep,
      Home: min,
      End: max,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    onChange(clamp(target));
  };

  return (
    <span
      className={`${className}${dragging ? ` ${className}--dragging` : ''}`}
      style={{ left }}
      role="slider"
      tabIndex={0}
      aria-label={label}
      aria-valuemin={Math.round(min * 100) / 100}
      aria-valuemax={Math.round(max * 100) / 100}
      aria-valuenow={Math.round(seconds * 100) / 100}
      aria-valuetext={formatSeconds(seconds, true)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => setDragging(false)}
      onPointerCancel={() => setDragging(false)}
      onKeyDown={onKeyDown}
      data-testid={testId}
    />
  );
}
