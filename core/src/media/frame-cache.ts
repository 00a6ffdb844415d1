// Frames already read, kept while they fit in a byte budget (least recently used leaves first); a
// frame being read is shared by everyone who asks for it meanwhile.

export class FrameCache {
  /** In use order: the first is the least recently used. */
  private readonly frames = new Map<string, Buffer>();
  private readonly reading = new Map<string, Promise<Buffer | undefined>>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** Frames held and their bytes. */
  get size(): { frames: number; bytes: number } {
    return { frames: this.frames.size, bytes: this.bytes };
  }

  /**
   * The frame under `key`: kept, being read, or read now with `read`. Nothing is kept when `read`
   * gives no frame or fails (its error reaches every asker).
   */
  get(key: string, read: () => Promise<Buffer | undefined>): Promise<Buffer | undefined> {
    const kept = this.frames.get(key);
    if (kept) {
      this.frames.delete(key);
      this.frames.set(key, kept);
      return Promise.resolve(kept);
    }
    const pending = this.reading.get(key);
    if (pending) return pending;
    const reading = read()
      .then((frame) => {
        if (frame) this.keep(key, frame);
        return frame;
      })
      .finally(() => this.reading.delete(key));
    this.reading.set(key, reading);
    return reading;
  }

  private keep(key: string, frame: Buffer): void {
    if (frame.length > this.maxBytes) return;
    this.frames.set(key, frame);
    this.bytes += frame.length;
    for (const [oldest, old] of this.frames) {
      if (this.bytes <= this.maxBytes) break;
      this.frames.delete(oldest);
      this.bytes -= old.length;
    }
  }
}
