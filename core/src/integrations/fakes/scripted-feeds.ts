// Feeds that hand over only what a test or a tape delivers: nothing listens, polls or reads files.
// The test bed delivers inputs itself; the tape player offers each taped line, and a taped screen frame
// is read again with real OCR when the feeds are given a screen-text reader.
import type { ClosableFeeds } from '../../sdk/feed-observer.js';
import type {
  Feed,
  FeedInputs,
  FeedKind,
  HttpPushOptions,
  PollOptions,
  ScreenTextInput,
  ScreenTextOptions,
  TailOptions,
  TcpOptions,
  UdpOptions,
  WatchFolderOptions,
  WebSocketOptions,
} from '../../sdk/feed-types.js';

export const SCRIPTED_PUSH_TOKEN = 'ScriptedPushToken0123';

/** Reads a taped frame as the live feed would have (undefined: nothing read); `release` at close. */
export interface ScreenTextReading {
  read(taped: unknown): Promise<ScreenTextInput | undefined>;
  release(): Promise<void>;
}

export interface ScriptedFeedsOptions {
  /** The token integrations write into game configs; default SCRIPTED_PUSH_TOKEN. */
  pushToken?: () => Promise<string>;
  /** How a screenText feed reads what `offer` gives it; without one, offered inputs are the readings. */
  screenText?: (id: string, options: ScreenTextOptions) => ScreenTextReading;
  /**
   * Whether `closeAll` closes the feeds (a tape: entries after it are unconsumed). The test bed keeps them
   * open, so that a test can show that what it delivers after deactivate is not handed over.
   */
  closeAllCloses?: boolean;
}

/** One feed; `deliver` calls the integration's handler as the host does, one input at a time. */
export class ScriptedFeed<T> implements Feed<T> {
  closed = false;
  #handler: ((input: T) => void | Promise<void>) | undefined;
  #queue: Promise<void> = Promise.resolve();

  constructor(
    readonly kind: FeedKind,
    readonly id: string,
    readonly options: unknown,
    readonly ready: Promise<void>,
    private readonly read: (offered: unknown) => Promise<T | undefined> = async (offered) => offered as T,
    private readonly release: () => Promise<void> = async () => undefined,
  ) {}

  onInput(handler: (input: T) => void | Promise<void>): void {
    this.#handler = handler;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.release();
  }

  /** Resolves once the handler has finished with this input (and every input delivered before it). */
  deliver(input: T): Promise<void> {
    const handler = this.#handler;
    if (!handler) return Promise.reject(new Error(`the ${this.kind} feed "${this.id}" has no handler yet`));
    if (this.closed) return Promise.reject(new Error(`the ${this.kind} feed "${this.id}" is closed`));
    this.#queue = this.#queue.then(() => handler(input));
    return this.#queue;
  }

  /** A tape line's input, read as the feed's kind reads it; false when nobody listens (no handler yet, or closed). */
  async offer(offered: unknown): Promise<boolean> {
    if (!this.#handler || this.closed) return false;
    const input = await this.read(offered);
    if (input !== undefined) await this.deliver(input);
    return true;
  }
}

/** Opens scripted feeds and remembers them, newest last. */
export class ScriptedFeeds implements ClosableFeeds {
  readonly opened: ScriptedFeed<unknown>[] = [];
  /** What `ready` of the next opened feed settles to (a rejection: the port is in use). */
  ready: Promise<void> = Promise.resolve();

  constructor(private readonly options: ScriptedFeedsOptions = {}) {}

  httpPush(id: string, options: HttpPushOptions): Feed<FeedInputs['httpPush']> {
    return this.open('httpPush', id, options);
  }
  pushToken(): Promise<string> {
    return this.options.pushToken?.() ?? Promise.resolve(SCRIPTED_PUSH_TOKEN);
  }
  poll(id: string, options: PollOptions): Feed<FeedInputs['poll']> {
    return this.open('poll', id, options);
  }
  tail(id: string, options: TailOptions): Feed<FeedInputs['tail']> {
    return this.open('tail', id, options);
  }
  watchFolder(id: string, options: WatchFolderOptions): Feed<FeedInputs['watchFolder']> {
    return this.open('watchFolder', id, options);
  }
  screenText(id: string, options: ScreenTextOptions): Feed<FeedInputs['screenText']> {
    const reading = this.options.screenText?.(id, options);
    return this.open('screenText', id, options, reading && ((taped) => reading.read(taped)), reading && (() => reading.release()));
  }
  tcp(id: string, options: TcpOptions): Feed<FeedInputs['tcp']> {
    return this.open('tcp', id, options);
  }
  webSocket(id: string, options: WebSocketOptions): Feed<FeedInputs['webSocket']> {
    return this.open('webSocket', id, options);
  }
  udp(id: string, options: UdpOptions): Feed<FeedInputs['udp']> {
    return this.open('udp', id, options);
  }

  async closeAll(): Promise<void> {
    if (!this.options.closeAllCloses) return;
    for (const feed of this.opened) await feed.close();
  }

  /** The newest open feed of that kind (and id); throws when there is none. */
  latest<K extends FeedKind>(kind: K, id?: string): ScriptedFeed<FeedInputs[K]> {
    const feed = this.opened.findLast((entry) => entry.kind === kind && !entry.closed && (id === undefined || entry.id === id));
    if (!feed)
      throw new Error(
        `no open ${kind} feed${id === undefined ? '' : ` "${id}"`}; opened: ${this.opened.map((entry) => `${entry.kind}:${entry.id}`).join(', ') || 'none'}`,
      );
    return feed as ScriptedFeed<FeedInputs[K]>;
  }

  /** The open feed with this id, whatever its kind. */
  withId(id: string): ScriptedFeed<unknown> | undefined {
    return this.opened.findLast((entry) => entry.id === id && !entry.closed);
  }

  private open<K extends FeedKind>(
    kind: K,
    id: string,
    options: unknown,
    read?: (offered: unknown) => Promise<FeedInputs[K] | undefined>,
    release?: () => Promise<void>,
  ): Feed<FeedInputs[K]> {
    if (this.options.closeAllCloses && this.withId(id)) throw new Error(`feed id ${id} is already open`);
    const feed = new ScriptedFeed<FeedInputs[K]>(kind, id, options, this.ready, read, release);
    this.opened.push(feed as ScriptedFeed<unknown>);
    return feed;
  }
}
