// The whole of an on-screen text integration's work, for plugins: open a screenText feed, match
// what it reads, bookmark each event at its frame's time in the recording. Matches still waiting
// for their exclusion window are confirmed when the integration closes it (the recording ended).
import type { Feed, Feeds, ScreenTextInput, ScreenTextOptions } from './feed-types.js';
import type { Bookmarks, PluginLogger, RecorderView } from './game-integration.js';
import { ScreenTextMatcher, type ScreenTextEvent, type ScreenTextMatcherOptions } from './screen-text-matcher.js';

export interface ScreenTextBookmarksServices {
  feeds: Feeds;
  bookmarks: Bookmarks;
  recorder: RecorderView;
  logger: PluginLogger;
}

export interface ScreenTextBookmarksOptions {
  /** The feed id (names it in tapes). */
  feed: string;
  screen: ScreenTextOptions;
  matcher: ScreenTextMatcherOptions;
}

export class ScreenTextBookmarks {
  private readonly matcher: ScreenTextMatcher;
  private feed: Feed<ScreenTextInput> | undefined;
  /** Start of the recording the feed reads: frame times count from it. */
  private recordingStart: Date | undefined;

  constructor(
    private readonly services: ScreenTextBookmarksServices,
    private readonly options: ScreenTextBookmarksOptions,
  ) {
    this.matcher = new ScreenTextMatcher(options.matcher);
  }

  /** Opens the feed for the running recording; resolves once it reads (rejects with why it cannot). */
  async open(): Promise<void> {
    await this.close();
    this.recordingStart = this.services.recorder.current?.startedAt;
    const feed = this.services.feeds.screenText(this.options.feed, this.options.screen);
    this.feed = feed;
    feed.onInput((input) => this.bookmark(this.matcher.push(input)));
    await feed.ready;
  }

  /** Bookmarks what was still waiting, closes the feed and forgets the recording. */
  async close(): Promise<void> {
    const feed = this.feed;
    if (!feed) return;
    this.feed = undefined;
    await feed.close();
    await this.bookmark(this.matcher.flush());
    this.matcher.reset();
    this.recordingStart = undefined;
  }

  private async bookmark(events: ScreenTextEvent[]): Promise<void> {
    const start = this.recordingStart;
    for (const event of events) {
      if (!start) {
        this.services.logger.debug(`${event.type} read on screen outside a recording: not bookmarked`, { text: event.text });
        continue;
      }
      const added = await this.services.bookmarks.add({ type: event.type, at: new Date(start.getTime() + event.timeMs) });
      this.services.logger.debug(`${event.type} read on screen${added ? '' : ': no recording covers it'}`, {
        text: event.text,
        timeMs: event.timeMs,
      });
    }
  }
}
