// The parts of the service that finish starting after it answers its first frontend (State's `loading`
// lists them): a command that needs one waits for it here instead of finding it half started.
import { TypedEvents } from './typed-events.js';

export class StartupProgress {
  private readonly pending = new Map<string, { done: Promise<void>; finish: () => void }>();
  /** The parts still loading, after each change. */
  readonly events = new TypedEvents<{ changed: readonly string[] }>();

  /** The parts still loading, in the order they were announced. */
  get loading(): string[] {
    return [...this.pending.keys()];
  }

  /** Lists `parts` as loading from now on (before the socket opens, so the first State names them), until each has run. */
  announce(...parts: string[]): void {
    for (const part of parts) {
      if (this.pending.has(part)) continue;
      let finish!: () => void;
      const done = new Promise<void>((resolve) => (finish = resolve));
      this.pending.set(part, { done, finish });
    }
    this.events.emit('changed', this.loading);
  }

  /**
   * Runs `load` as `part`, listed as loading until it settles, and returns what it returns. A failure is the
   * caller's to handle; the part is no longer listed either way (what failed says so in its own State fields).
   */
  async run<T>(part: string, load: () => Promise<T>): Promise<T> {
    if (!this.pending.has(part)) this.announce(part);
    try {
      return await load();
    } finally {
      this.pending.get(part)?.finish();
      this.pending.delete(part);
      this.events.emit('changed', this.loading);
    }
  }

  /** Resolves once `part` has finished loading, at once when it is not loading. Never rejects. */
  async loaded(part: string): Promise<void> {
    await this.pending.get(part)?.done;
  }
}
