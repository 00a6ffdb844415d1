// Which parts of a session a highlight keeps (pure). Every moment — a positive bookmark, or where a
// session has none, one of its loudest half-seconds — gives a window around it; windows are clamped
// to the video, merged when they overlap or nearly touch, and capped in total length by keeping the
// densest ones, then played in time order.
import type { Bookmark, BookmarkType } from '../protocol/index.js';

/** Seconds kept before and after a moment. */
export interface MomentWindow {
  before: number;
  after: number;
}

/** The bookmark types that make a highlight, with their windows (documented in docs/protocol.md). */
export const HIGHLIGHT_WINDOWS: Readonly<Partial<Record<BookmarkType, MomentWindow>>> = {
  Kill: { before: 8, after: 3 },
  Assist: { before: 6, after: 3 },
  Goal: { before: 10, after: 4 },
};

/** Windows closer than this are merged into one (a cut that short only jars). */
export const MERGE_GAP_SECONDS = 2;
/** The longest highlight. */
export const MAX_HIGHLIGHT_SECONDS = 60;
/** Windows shorter than this after clamping (a bookmark past the end) are dropped. */
export const MIN_WINDOW_SECONDS = 0.5;

export interface Moment {
  /** Seconds from the start of the video. */
  time: number;
  window: MomentWindow;
}

export interface PlannedWindow {
  start: number;
  end: number;
  /** The moments inside, by time. */
  moments: number[];
}

export interface PlanOptions {
  durationSeconds: number;
  maxSeconds?: number;
  mergeGapSeconds?: number;
}

/** Whether a bookmark type makes a highlight. */
export const isPositiveBookmark = (bookmark: Pick<Bookmark, 'type'>): boolean => HIGHLIGHT_WINDOWS[bookmark.type] !== undefined;

/** The moments of the positive bookmarks (`seconds`: offset from the start of the video, parsed by the caller). */
export function bookmarkMoments(bookmarks: readonly { type: BookmarkType; seconds: number }[]): Moment[] {
  return bookmarks.flatMap((bookmark) => {
    const window = HIGHLIGHT_WINDOWS[bookmark.type];
    return window ? [{ time: bookmark.seconds, window }] : [];
  });
}

/** Clamped, merged, capped windows in time order; empty when no moment lies in the video. */
export function planHighlight(moments: readonly Moment[], options: PlanOptions): PlannedWindow[] {
  const { durationSeconds, maxSeconds = MAX_HIGHLIGHT_SECONDS, mergeGapSeconds = MERGE_GAP_SECONDS } = options;
  const clamped = moments
    .filter((moment) => Number.isFinite(moment.time) && moment.time >= 0 && moment.time <= durationSeconds)
    .map((moment) => ({
      start: Math.max(0, moment.time - moment.window.before),
      end: Math.min(durationSeconds, moment.time + moment.window.after),
      moments: [moment.time],
    }))
    .filter((window) => window.end - window.start >= MIN_WINDOW_SECONDS)
    .sort((a, b) => a.start - b.start);
  const merged: PlannedWindow[] = [];
  for (const window of clamped) {
    const last = merged.at(-1);
    if (last && window.start - last.end < mergeGapSeconds) {
      last.end = Math.max(last.end, window.end);
      last.moments.push(...window.moments);
    } else {
      merged.push({ ...window, moments: [...window.moments] });
    }
  }
  for (const window of merged) window.moments.sort((a, b) => a - b);
  return capWindows(merged, maxSeconds);
}

/**
 * Keeps the densest windows (moments per second; more moments first on a tie, then the earlier)
 * while they fit in `maxSeconds`; a window that no longer fits whole is trimmed around its moments
 * into what is left, when at least `MIN_WINDOW_SECONDS` is.
 */
export function capWindows(windows: readonly PlannedWindow[], maxSeconds: number): PlannedWindow[] {
  const length = (window: PlannedWindow) => window.end - window.start;
  if (windows.reduce((sum, window) => sum + length(window), 0) <= maxSeconds) return windows.map((window) => ({ ...window }));
  const ranked = [...windows].sort(
    (a, b) => b.moments.length / length(b) - a.moments.length / length(a) || b.moments.length - a.moments.length || a.start - b.start,
  );
  const kept: PlannedWindow[] = [];
  let left = maxSeconds;
  for (const window of ranked) {
    if (left < MIN_WINDOW_SECONDS) break;
    const fitted = length(window) <= left ? { ...window } : trimWindow(window, left);
    kept.push(fitted);
    left -= length(fitted);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** `window` cut to `seconds`, centred on the middle of its moments, inside its own bounds. */
export function trimWindow(window: PlannedWindow, seconds: number): PlannedWindow {
  const first = window.moments[0] ?? window.start;
  const last = window.moments.at(-1) ?? window.end;
  const centre = (first + last) / 2;
  const start = Math.min(Math.max(window.start, centre - seconds / 2), window.end - seconds);
  const end = start + seconds;
  return { start, end, moments: window.moments.filter((time) => time >= start && time <= end) };
}

/** Total length of the windows, in seconds. */
export const plannedSeconds = (windows: readonly PlannedWindow[]): number =>
  windows.reduce((sum, window) => sum + window.end - window.start, 0);

/**
 * `time` (seconds in the source) in the highlight made of `windows` played one after the other;
 * undefined when no window holds it.
 */
export function rebaseTime(windows: readonly PlannedWindow[], time: number): number | undefined {
  let offset = 0;
  for (const window of windows) {
    if (time >= window.start && time <= window.end) return offset + time - window.start;
    offset += window.end - window.start;
  }
  return undefined;
}

/** One loudness reading: the mean level (dBFS) of the half-second starting at `time`. */
export interface LoudnessSample {
  time: number;
  level: number;
}

export interface PeakOptions {
  /** At most this many peaks. */
  count: number;
  /** Readings quieter than the loudest by more than this are no peak. */
  withinDb: number;
  /** A peak is skipped when it lies inside the window of a louder one. */
  window: MomentWindow;
  /** Length of one reading. */
  sampleSeconds: number;
}

export const DEFAULT_PEAKS: Omit<PeakOptions, 'window'> = { count: 5, withinDb: 10, sampleSeconds: 0.5 };

/**
 * The loudest readings as moments (at the middle of their half-second), loudest first, each outside
 * the windows of louder ones; silence (`-inf`) is never a peak.
 */
export function loudestMoments(samples: readonly LoudnessSample[], options: PeakOptions): Moment[] {
  const audible = samples.filter((sample) => Number.isFinite(sample.level));
  if (audible.length === 0) return [];
  const loudest = Math.max(...audible.map((sample) => sample.level));
  const ranked = audible
    .filter((sample) => sample.level >= loudest - options.withinDb)
    .sort((a, b) => b.level - a.level || a.time - b.time);
  const chosen: Moment[] = [];
  for (const sample of ranked) {
    if (chosen.length >= options.count) break;
    const time = sample.time + options.sampleSeconds / 2;
    if (chosen.some((moment) => time >= moment.time - moment.window.before && time <= moment.time + moment.window.after)) continue;
    chosen.push({ time, window: options.window });
  }
  return chosen;
}
