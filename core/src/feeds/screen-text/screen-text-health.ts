// What a screenText feed tells the user through the integration's health: the picture has an
// aspect ratio its region is not made for, or nothing legible was ever read (something covers the
// text). Both use frame times, so a tape reports the same as the live game.
import type { FrameReading } from './screen-text-reader.js';

/** No legible text in this much recording time says so (events can be minutes apart in a match). */
export const DEFAULT_NO_TEXT_AFTER_MS = 5 * 60_000;
/** Legible: two letters or digits read with at least this confidence (noise reads as odd marks). */
const LEGIBLE_CONFIDENCE = 50;

export class ScreenTextHealth {
  private reported: string | undefined;
  private firstFrameMs: number | undefined;
  private textSeen = false;

  constructor(
    private readonly feed: string,
    private readonly degraded: (reason: string | undefined) => void,
    private readonly noTextAfterMs = DEFAULT_NO_TEXT_AFTER_MS,
  ) {}

  onReading(reading: FrameReading, frameTimeMs: number): void {
    if (reading.kind === 'unsupportedAspect') return this.report(reading.reason);
    const { text, confidence } = reading.input;
    this.firstFrameMs ??= frameTimeMs;
    if (confidence >= LEGIBLE_CONFIDENCE && (text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 2) this.textSeen = true;
    const waited = frameTimeMs - this.firstFrameMs;
    this.report(
      this.textSeen || waited < this.noTextAfterMs
        ? undefined
        : `No on-screen text read by screenText feed "${this.feed}" in ${Math.round(waited / 1000)} s of recording: if events happened, ` +
            'something may cover that part of the picture (an overlay, a chat or performance window) or the game draws its text differently (HUD scale, colour filter).',
    );
  }

  private report(reason: string | undefined): void {
    if (reason === this.reported) return;
    this.reported = reason;
    this.degraded(reason);
  }
}
