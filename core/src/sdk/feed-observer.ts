// Internal: how the host watches what a plugin's feeds deliver (health, tape recording).
import type { ScreenFrame } from './rgb-image.js';
import type { FeedInputs, FeedKind, Feeds } from './feed-types.js';

export interface ObservedInput<K extends FeedKind = FeedKind> {
  feed: string;
  kind: K;
  input: FeedInputs[K];
  /** When the input arrived (it may be handed over later, when the integration was busy). */
  at: Date;
  /** The frame a screenText input was read from, when the feeds keep frames for a tape: it replays the reading. */
  frame?: ScreenFrame;
}

export type FeedObserver = (entry: ObservedInput) => void;

/** The feeds of one integration instance, which the host can close all at once. */
export interface ClosableFeeds extends Feeds {
  closeAll(): Promise<void>;
}
