// The live preview of one recording (`RecordingPreviewFrame`): off at the start, switched by the user.
import type { RecordingFrame } from '../media/recording-frames.js';
import type { EventSink } from '../protocol/event-sink.js';
import type { Logger } from '../support/logger.js';

export class Preview {
  #enabled = false;
  #closed = false;
  #dropped = 0;

  constructor(
    private readonly events: EventSink,
    private readonly logger: Logger,
  ) {}

  get enabled(): boolean {
    return this.#enabled;
  }

  /** Switches the preview and says so (`RecordingPreviewState`); returns the new state. */
  toggle(): boolean {
    this.#enabled = !this.#enabled;
    this.events.send('RecordingPreviewState', { enabled: this.#enabled });
    this.logger.info('preview switched', { enabled: this.#enabled, framesDroppedSoFar: this.#dropped });
    return this.#enabled;
  }

  /** Says the preview is off: when the recording starts, and for good when it ends. */
  announceOff(closing = false): void {
    this.#enabled = false;
    this.#closed ||= closing;
    this.events.send('RecordingPreviewState', { enabled: false });
  }

  /**
   * A frame goes to the frontend only while the preview is on and the previous event has left
   * the socket; otherwise it is dropped, never queued, so a slow frontend sees fewer frames
   * instead of older ones.
   */
  offer(frame: RecordingFrame): void {
    if (!this.#enabled || this.#closed || !this.events.isConnected) return;
    if ((this.events.bufferedAmount ?? 0) > 0) {
      this.#dropped++;
      return;
    }
    this.events.send('RecordingPreviewFrame', { jpegBase64: frame.jpeg.toString('base64'), width: frame.width, height: frame.height });
  }
}
