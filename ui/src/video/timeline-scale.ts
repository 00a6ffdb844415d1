// The time scale under the timeline: tick steps people read at a glance (1 s, 5 s, 30 s, 1 min…),
// the smallest that leaves room for every label at the current zoom.
import { formatSeconds } from '../library/content-format';

/** Seconds between labelled ticks, smallest first. */
const STEPS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];
/** Room a label such as `12:30` or `1:02:30` needs, with a gap, in pixels. */
const LABEL_SPACING_PX = 72;
/** Tenths (`0:03.5`) are longer to read: steps under a second only once a zoom leaves this much room. */
const TENTHS_LABEL_SPACING_PX = 120;

export interface ScaleTick {
  seconds: number;
  label: string;
}

/** The smallest step whose labels have room when the whole video spans `widthPx`. */
export function tickStep(duration: number, widthPx: number): number {
  const pixelsPerSecond = widthPx / Math.max(duration, 0.001);
  const room = (step: number) => (step < 1 ? TENTHS_LABEL_SPACING_PX : LABEL_SPACING_PX);
  return STEPS.find((step) => step * pixelsPerSecond >= room(step)) ?? STEPS[STEPS.length - 1]!;
}

/** The ticks between `from` and `to` seconds (the visible part), labelled with tenths below a second's step. */
export function scaleTicks(duration: number, widthPx: number, from: number, to: number): ScaleTick[] {
  const step = tickStep(duration, widthPx);
  const ticks: ScaleTick[] = [];
  const first = Math.max(0, Math.floor(from / step));
  for (let index = first; index * step <= Math.min(to, duration) + 1e-9; index++) {
    // Counted in steps and rounded, so 0.1 steps do not drift into 0.30000000000000004.
    const seconds = Math.round(index * step * 1000) / 1000;
    ticks.push({ seconds, label: formatSeconds(seconds, step < 1) });
  }
  return ticks;
}
