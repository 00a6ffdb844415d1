// Opens an integration's feeds on the live game: each source's inputs go through an InputQueue to
// the integration's handler, and past the tape recorder on the way.
import type { ScreenFrame } from '../../sdk/rgb-image.js';
import { checkScreenTextOptions } from '../screen-text/screen-text-reader.js';
import type { PluginLogger } from '../../sdk/game-integration.js';
import type { ClosableFeeds, FeedObserver } from '../../sdk/feed-observer.js';
import type {
  FeedInputs,
  FeedKind,
  FolderInput,
  HttpPushInput,
  HttpPushOptions,
  PollInput,
  PollOptions,
  ScreenTextInput,
  ScreenTextOptions,
  TailInput,
  TailOptions,
  TcpInput,
  TcpOptions,
  UdpInput,
  UdpOptions,
  WatchFolderOptions,
  WebSocketInput,
  WebSocketOptions,
} from '../../sdk/feed-types.js';
import { FileTail } from './file-tail.js';
import { FolderWatcher } from './folder-watcher.js';
import { HttpPushListener } from './http-push-listener.js';
import { InputQueue } from './input-queue.js';
import { LocalPoller } from './local-poller.js';
import { ScreenTextSource, type ScreenTextSupport } from '../screen-text/screen-text-source.js';
import { TcpClient } from './tcp-client.js';
import { UdpListener } from './udp-listener.js';
import { UnavailableSource } from './unavailable-source.js';
import { WebSocketClient } from './websocket-client.js';
import type { LiveFeed, LiveSource, SourceContext } from './types.js';

export interface LiveFeedsOptions {
  logger: PluginLogger;
  /** Sees every input just before the integration gets it (the tape recorder, the integration's health). */
  observe?: FeedObserver;
  /**
   * Whether `observe` keeps the frames screenText inputs were read from (the tape recorder): each read
   * then copies its frame (6 MiB at 1080p) for it. Without it the observer gets no frame.
   */
  keepsFrames?: boolean;
  now?: () => Date;
  /** Frames and the shared recognizer for screenText feeds; without it they cannot open (`ready` rejects). */
  screenText?: ScreenTextSupport;
  /** The data folder's push token (`PushTokenStore`); without it `pushToken` rejects. */
  pushToken?: () => Promise<string>;
}

export class LiveFeeds implements ClosableFeeds {
  private readonly openFeeds = new Map<string, LiveFeed<unknown>>();

  constructor(private readonly options: LiveFeedsOptions) {}

  httpPush(id: string, options: HttpPushOptions): LiveFeed<HttpPushInput> {
    return this.open(id, 'httpPush', (context) => new HttpPushListener(context, options));
  }

  pushToken(): Promise<string> {
    const { pushToken } = this.options;
    return pushToken ? pushToken() : Promise.reject(new Error('no data folder to keep the game push token in'));
  }

  /** Throws when the URL is not a loopback URL, or the headers or TLS options are unusable. */
  poll(id: string, options: PollOptions): LiveFeed<PollInput> {
    return this.open(id, 'poll', (context) => new LocalPoller(context, options));
  }

  tail(id: string, options: TailOptions): LiveFeed<TailInput> {
    return this.open(id, 'tail', (context) => new FileTail(context, options));
  }

  watchFolder(id: string, options: WatchFolderOptions): LiveFeed<FolderInput> {
    return this.open(id, 'watchFolder', (context) => new FolderWatcher(context, options));
  }

  /** Throws when the options are unusable (a region outside the frame, a bad colour). */
  screenText(id: string, options: ScreenTextOptions): LiveFeed<ScreenTextInput> {
    checkScreenTextOptions(id, options);
    const support = this.options.screenText;
    return this.open(id, 'screenText', (context) =>
      support
        ? new ScreenTextSource(context, options, support)
        : new UnavailableSource(
            context,
            `screenText feed "${id}" has no frames to read here: on-screen text is read from the service's recordings`,
          ),
    );
  }

  /** Throws when the host is not loopback. */
  tcp(id: string, options: TcpOptions): LiveFeed<TcpInput> {
    return this.open(id, 'tcp', (context) => new TcpClient(context, options));
  }

  /** Throws when the URL is not a loopback URL, or the headers or TLS options are unusable. */
  webSocket(id: string, options: WebSocketOptions): LiveFeed<WebSocketInput> {
    return this.open(id, 'webSocket', (context) => new WebSocketClient(context, options));
  }

  udp(id: string, options: UdpOptions): LiveFeed<UdpInput> {
    return this.open(id, 'udp', (context) => new UdpListener(context, options));
  }

  /** Closes every feed still open (the host calls it when the integration deactivates). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.openFeeds.values()].map((feed) => feed.close()));
  }

  private open<K extends FeedKind>(
    id: string,
    kind: K,
    createSource: (context: SourceContext<FeedInputs[K]>) => LiveSource,
  ): LiveFeed<FeedInputs[K]> {
    if (this.openFeeds.has(id)) {
      throw new Error(`a feed with id "${id}" is already open; give each feed of an integration its own id`);
    }
    const { logger, observe, now } = this.options;
    const keepsFrames = observe !== undefined && this.options.keepsFrames === true;
    // The frames screenText inputs were read from, until the tape recorder has seen them.
    const frames = new WeakMap<object, ScreenFrame>();
    const queue = new InputQueue<FeedInputs[K]>({
      feed: id,
      logger,
      now,
      beforeDelivery:
        observe &&
        ((input, at) => {
          const frame = frames.get(input);
          observe({ feed: id, kind, input, at, ...(frame ? { frame } : {}) });
        }),
    });
    const source = createSource({
      feed: id,
      logger,
      emit: (input, frame) => {
        if (frame && keepsFrames) frames.set(input, frame);
        queue.push(input);
      },
      keepsFrames,
    });
    let closing: Promise<void> | undefined;
    const feed: LiveFeed<FeedInputs[K]> = {
      ready: source.ready,
      onInput: (handler) => queue.setHandler(handler),
      close: () => (closing ??= this.closeFeed(id, feed, queue, source)),
    };
    this.openFeeds.set(id, feed);
    return feed;
  }

  private async closeFeed<T>(id: string, feed: LiveFeed<T>, queue: InputQueue<T>, source: LiveSource): Promise<void> {
    queue.close();
    try {
      await source.close();
    } catch (error) {
      this.options.logger.warn(`feed "${id}" did not close cleanly`, { feed: id, error });
    } finally {
      // The id is free again: an integration may reopen a feed it closed.
      if (this.openFeeds.get(id) === feed) this.openFeeds.delete(id);
    }
  }
}
