// A bound on the ffmpeg decodes that run at once: a page asking for a hundred frames gets them a few
// at a time, and past a short queue it is told to come back rather than starting a process per ask.
import os from 'node:os';

export class DecoderPoolFull extends Error {
  constructor() {
    super('Too many frames are being read: try again in a moment.');
    this.name = 'DecoderPoolFull';
  }
}

export interface DecoderPoolLimits {
  /** Decodes at once. */
  concurrency: number;
  /** Decodes waiting for a free slot; one more is refused with `DecoderPoolFull`. */
  queue: number;
}

/** One decode per core beyond the first (a recording needs one), at most two, at least one; a short queue. */
export function defaultDecoderPoolLimits(cores = os.availableParallelism()): DecoderPoolLimits {
  return { concurrency: Math.max(1, Math.min(2, cores - 1)), queue: 24 };
}

export class DecoderPool {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limits: DecoderPoolLimits = defaultDecoderPoolLimits()) {}

  /** Runs `decode` when a slot is free; rejects at once with `DecoderPoolFull` when the queue is full. */
  async run<T>(decode: () => Promise<T>): Promise<T> {
    if (this.running < this.limits.concurrency) {
      this.running++;
    } else {
      if (this.waiting.length >= this.limits.queue) throw new DecoderPoolFull();
      // The slot is handed over by the decode that ends: `running` stays as it is.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await decode();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
