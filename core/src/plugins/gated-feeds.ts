// The feeds an integration is given, with a gate the host shuts before deactivate(): once shut, no input
// is handed over, and the handler calls already under way have finished. So a plugin never sees an input
// after its deactivate() has begun, and needs no "am I still active?" guard of its own.
import type { ClosableFeeds } from '../sdk/feed-observer.js';
import type {
  Feed, HttpPushOptions, PollOptions, ScreenTextOptions, TailOptions, WatchFolderOptions,
} from '../sdk/feed-types.js';

export class GatedFeeds implements ClosableFeeds {
  #open = false;
  readonly #handling = new Set<Promise<void>>();

  /** `heard` is told of every input handed over (the silence watch). */
  constructor(private readonly inner: ClosableFeeds, private readonly heard: () => void = () => undefined) {}

  httpPush(id: string, options: HttpPushOptions) { return this.gate(this.inner.httpPush(id, options)); }
  pushToken(): Promise<string> { return this.inner.pushToken(); }
  poll(id: string, options: PollOptions) { return this.gate(this.inner.poll(id, options)); }
  tail(id: string, options: TailOptions) { return this.gate(this.inner.tail(id, options)); }
  watchFolder(id: string, options: WatchFolderOptions) { return this.gate(this.inner.watchFolder(id, options)); }
  screenText(id: string, options: ScreenTextOptions) { return this.gate(this.inner.screenText(id, options)); }

  /** Inputs are handed over from now on (at activate). */
  open(): void {
    this.#open = true;
  }

  /** Shuts the gate, waits for the handler calls under way, then closes every feed (before deactivate). */
  async shut(): Promise<void> {
    this.#open = false;
    await Promise.all(this.#handling);
    await this.inner.closeAll();
  }

  closeAll(): Promise<void> {
    this.#open = false;
    return this.inner.closeAll();
  }

  private gate<T>(feed: Feed<T>): Feed<T> {
    return {
      ready: feed.ready,
      close: () => feed.close(),
      onInput: (handler) => feed.onInput((input) => this.deliver(handler, input)),
    };
  }

  private async deliver<T>(handler: (input: T) => void | Promise<void>, input: T): Promise<void> {
    if (!this.#open) return;
    this.heard();
    const handling = (async () => handler(input))();
    const settled = handling.then(() => undefined, () => undefined);
    this.#handling.add(settled);
    try {
      await handling;
    } finally {
      this.#handling.delete(settled);
    }
  }
}
