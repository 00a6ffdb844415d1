// In and out points set at the playhead, by the Set start / Set end buttons and the I / O keys.
import type { TimeRange } from './Timeline';

/** The range starting at `seconds`; its end kept when after it (the video's end when there was no range). */
export function withIn(range: TimeRange | undefined, seconds: number, duration: number): TimeRange {
  return { start: seconds, end: Math.max(seconds, range?.end ?? duration) };
}

/** The range ending at `seconds`; its start kept when before it (the video's start when there was no range). */
export function withOut(range: TimeRange | undefined, seconds: number): TimeRange {
  return { start: Math.min(seconds, range?.start ?? 0), end: seconds };
}
