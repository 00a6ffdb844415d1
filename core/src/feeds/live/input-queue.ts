// Hands a feed's inputs to its handler in order, one call at a time, with a bounded backlog so a
// game flooding us (or a slow handler) cannot grow memory without limit.
import type { PluginLogger } from '../../sdk/game-integration.js';

export type InputHandler<T> = (input: T) => void | Promise<void>;

export interface InputQueueOptions<T> {
  feed: string;
  logger: PluginLogger;
  /** When an input arrived (default: the wall clock). */
  now?: () => Date;
  /** Inputs kept while the handler is busy or not set yet; beyond it the oldest are dropped (default 1000). */
  capacity?: number;
  /** Called just before each input is handed over, with the time it arrived (the tape recorder). */
  beforeDelivery?: (input: T, arrivedAt: Date) => void;
}

interface QueuedInput<T> {
  input: T;
  arrivedAt: Date;
}

export class InputQueue<T> {
  private readonly pending: QueuedInput<T>[] = [];
  private readonly capacity: number;
  private readonly now: () => Date;
  private handler: InputHandler<T> | undefined;
  private delivering = false;
  private closed = false;
  private droppedInBurst = 0;

  constructor(private readonly options: InputQueueOptions<T>) {
    this.capacity = options.capacity ?? 1000;
    this.now = options.now ?? (() => new Date());
  }

  push(input: T): void {
    if (this.closed) return;
    this.pending.push({ input, arrivedAt: this.now() });
    if (this.pending.length > this.capacity) this.dropOldest();
    void this.deliverPending();
  }

  /** Sets (or replaces) the handler; inputs kept until now are delivered to it. */
  setHandler(handler: InputHandler<T>): void {
    this.handler = handler;
    void this.deliverPending();
  }

  /** Drops what is still queued and delivers nothing more; a handler call in progress is not awaited. */
  close(): void {
    this.closed = true;
    this.pending.length = 0;
  }

  private dropOldest(): void {
    this.pending.shift();
    if (this.droppedInBurst++ === 0) {
      this.options.logger.warn(
        `feed "${this.options.feed}": more than ${this.capacity} inputs are waiting for the integration; dropping the oldest`,
        { feed: this.options.feed },
      );
    }
  }

  private async deliverPending(): Promise<void> {
    if (this.delivering) return;
    this.delivering = true;
    try {
      // Never call the handler from inside push() or setHandler(): their callers are not ready for it.
      await Promise.resolve();
      while (!this.closed && this.handler && this.pending.length > 0) {
        const next = this.pending.shift();
        if (next) await this.deliver(next, this.handler);
      }
      this.reportDropped();
    } finally {
      this.delivering = false;
    }
  }

  private async deliver({ input, arrivedAt }: QueuedInput<T>, handler: InputHandler<T>): Promise<void> {
    try {
      this.options.beforeDelivery?.(input, arrivedAt);
    } catch (error) {
      this.options.logger.error(`feed "${this.options.feed}": recording an input failed`, { feed: this.options.feed, error });
    }
    try {
      await handler(input);
    } catch (error) {
      this.options.logger.error(`feed "${this.options.feed}": the integration failed to handle an input`, {
        feed: this.options.feed,
        error,
      });
    }
  }

  private reportDropped(): void {
    if (this.droppedInBurst === 0 || this.pending.length > 0) return;
    this.options.logger.warn(`feed "${this.options.feed}": ${this.droppedInBurst} inputs were dropped while the integration caught up`, {
      feed: this.options.feed,
      dropped: this.droppedInBurst,
    });
    this.droppedInBurst = 0;
  }
}
