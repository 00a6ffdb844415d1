// The feeds an integration is given, with a gate the host shuts before deactivate(): once shut, no input
// is handed over, and the handler calls already under way have finished. So a plugin never sees an input
// after its deactivate() has begun, and needs no "am I still active?" guard of its own. Only the feed
// kinds its manifest declares open.
import type { ClosableFeeds } from '../sdk/feed-observer.js';
import type {
  Feed,
  FeedKind,
  HttpPushOptions,
  PollOptions,
  ScreenTextOptions,
  TailOptions,
  TcpOptions,
  UdpOptions,
  WatchFolderOptions,
  WebSocketOptions,
} from '../sdk/feed-types.js';

export interface GatedFeedsOptions {
  /** The integration's key, for errors. */
  key: string;
  /** The feed kinds its manifest declares (`declaredFeedKinds`); every kind when there is no manifest. */
  declaredKinds?: ReadonlySet<string>;
  /** Told of every input handed over (the silence watch). */
  heard: () => void;
}

export class GatedFeeds implements ClosableFeeds {
  #open = false;
  readonly #handling = new Set<Promise<void>>();

  constructor(
    private readonly inner: ClosableFeeds,
    private readonly options: GatedFeedsOptions,
  ) {}

  httpPush(id: string, options: HttpPushOptions) {
    return this.gate('httpPush', id, () => this.inner.httpPush(id, options));
  }
  pushToken(): Promise<string> {
    return this.inner.pushToken();
  }
  poll(id: string, options: PollOptions) {
    return this.gate('poll', id, () => this.inner.poll(id, options));
  }
  tail(id: string, options: TailOptions) {
    return this.gate('tail', id, () => this.inner.tail(id, options));
  }
  watchFolder(id: string, options: WatchFolderOptions) {
    return this.gate('watchFolder', id, () => this.inner.watchFolder(id, options));
  }
  screenText(id: string, options: ScreenTextOptions) {
    return this.gate('screenText', id, () => this.inner.screenText(id, options));
  }
  tcp(id: string, options: TcpOptions) {
    return this.gate('tcp', id, () => this.inner.tcp(id, options));
  }
  webSocket(id: string, options: WebSocketOptions) {
    return this.gate('webSocket', id, () => this.inner.webSocket(id, options));
  }
  udp(id: string, options: UdpOptions) {
    return this.gate('udp', id, () => this.inner.udp(id, options));
  }

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

  private gate<T>(kind: FeedKind, id: string, open: () => Feed<T>): Feed<T> {
    const { key, declaredKinds } = this.options;
    if (declaredKinds && !declaredKinds.has(kind)) {
      throw new Error(
        `${key} opened a ${kind} feed ("${id}") that its manifest does not declare: add "${kind}" to keyframe.integration.feeds in its package.json`,
      );
    }
    const feed = open();
    return {
      ready: feed.ready,
      close: () => feed.close(),
      onInput: (handler) => feed.onInput((input) => this.deliver(handler, input)),
    };
  }

  private async deliver<T>(handler: (input: T) => void | Promise<void>, input: T): Promise<void> {
    if (!this.#open) return;
    this.options.heard();
    const handling = (async () => handler(input))();
    const settled = handling.then(
      () => undefined,
      () => undefined,
    );
    this.#handling.add(settled);
    try {
      await handling;
    } finally {
      this.#handling.delete(settled);
    }
  }
}
