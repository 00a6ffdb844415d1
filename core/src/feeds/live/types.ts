// Shapes shared by the live feed sources and the LiveFeeds that wires them to input queues.
import type { PluginLogger } from '../../sdk/game-integration.js';
import type { ScreenFrame } from '../../sdk/rgb-image.js';
import type { Feed } from '../../sdk/feed-types.js';

/** A feed opened on the live game. */
export interface LiveFeed<T> extends Feed<T> {
  /**
   * Settles once the feed is listening and has taken its starting point (e.g. the end of a followed
   * file), or rejects when it cannot work at all (e.g. its port is taken). Awaiting it is optional:
   * a failure is logged either way.
   */
  readonly ready: Promise<void>;
}

/** What a live source gets: the feed's id for messages, a logger, and where to put its inputs. */
export interface SourceContext<T> {
  feed: string;
  logger: PluginLogger;
  /** `frame`: the picture a screenText input was read from, for the tape recorder. */
  emit(input: T, frame?: ScreenFrame): void;
  /** Whether `emit` keeps the frames it is given (the tape recorder): they must then be the source's own copies. */
  keepsFrames?: boolean;
}

/** Something that produces inputs from the live game until it is closed. */
export interface LiveSource {
  readonly ready: Promise<void>;
  close(): Promise<void>;
}
