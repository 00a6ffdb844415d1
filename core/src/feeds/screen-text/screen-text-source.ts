// The live `screenText` source: every interval, the newest frame of the recording is read, unless
// the previous read is still running (then that tick is skipped: frames are never queued, so OCR
// cannot fall behind or grow memory). One shared recognizer for all integrations.
import type { ScreenFrameSource } from './screen-frames.js';
import type { ScreenFrame } from '../../sdk/rgb-image.js';
import { ScreenTextHealth } from './screen-text-health.js';
import { ScreenTextReader } from './screen-text-reader.js';
import type { RecognizerLease, SharedTextRecognizer } from './text-recognizer.js';
import type { ScreenTextInput, ScreenTextOptions } from '../../sdk/feed-types.js';
import type { LiveSource, SourceContext } from '../live/types.js';

/** What the service provides for screenText feeds. */
export interface ScreenTextSupport {
  /** The running recording's frames (undefined between recordings). */
  frames(): ScreenFrameSource | undefined;
  recognizer: SharedTextRecognizer;
  /** The integration's health: the feed says when it cannot read. */
  degraded(reason: string | undefined): void;
  /** See `ScreenTextHealth` (tests shorten it). */
  noTextAfterMs?: number;
}

export class ScreenTextSource implements LiveSource {
  readonly ready = Promise.resolve();
  private readonly lease: RecognizerLease;
  private readonly reader: ScreenTextReader;
  private readonly health: ScreenTextHealth;
  private readonly timer: NodeJS.Timeout;
  private reading: Promise<void> | undefined;
  private lastFrame: ScreenFrame | undefined;
  private lastProblem: string | undefined;
  /** Ticks that found the previous frame still being read. */
  skipped = 0;

  constructor(
    private readonly context: SourceContext<ScreenTextInput>,
    options: ScreenTextOptions,
    private readonly support: ScreenTextSupport,
  ) {
    this.lease = support.recognizer.lease();
    this.reader = new ScreenTextReader(context.feed, options, this.lease);
    this.health = new ScreenTextHealth(context.feed, (reason) => support.degraded(reason), support.noTextAfterMs);
    this.timer = setInterval(() => this.tick(), options.intervalMs);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.reading;
    await this.lease.release();
  }

  private tick(): void {
    if (this.reading) {
      this.skipped += 1;
      return;
    }
    const latest = this.support.frames()?.latest();
    if (!latest || latest === this.lastFrame) return;
    this.lastFrame = latest;
    // The reader takes the pixels it needs at once; the frame's buffer is reused after the next frame.
    const frame = this.context.keepsFrames ? { ...latest, data: Buffer.from(latest.data) } : latest;
    this.reading = this.read(frame).finally(() => {
      this.reading = undefined;
    });
  }

  private async read(frame: ScreenFrame): Promise<void> {
    try {
      const reading = await this.reader.read(frame);
      this.health.onReading(reading, frame.timeMs);
      this.lastProblem = undefined;
      if (reading.kind === 'read') this.context.emit(reading.input, frame);
    } catch (error) {
      // Logged once until a read succeeds again; the next tick tries the next frame.
      const message = error instanceof Error ? error.message : String(error);
      if (message === this.lastProblem) return;
      this.lastProblem = message;
      this.context.logger.warn(`screenText feed "${this.context.feed}" could not read a frame (${message}); it keeps trying`, {
        feed: this.context.feed,
      });
    }
  }
}
