// Rocket League tells nothing to the outside: this integration reads the event message it draws
// on screen (the recording's frames, OCR) and bookmarks the local player's goals and assists.
import {
  Bookmarks,
  Feeds,
  Logger,
  Recorder,
  ScreenTextBookmarks,
  type BookmarksService,
  type DetectedGame,
  type FeedsService,
  type GameIntegration,
  type PluginLogger,
  type RecorderView,
} from '@keyframe/core';
import { inject, injectable } from 'tsyringe';
import { EVENT_KEYWORDS, EVENT_TEXT } from './event-text.js';

@injectable()
export class VehicleSoccerIntegration implements GameIntegration {
  readonly #events: ScreenTextBookmarks;

  constructor(
    @inject(Feeds) feeds: FeedsService,
    @inject(Bookmarks) bookmarks: BookmarksService,
    @inject(Recorder) recorder: RecorderView,
    @inject(Logger) private readonly logger: PluginLogger,
  ) {
    this.#events = new ScreenTextBookmarks(
      { feeds, bookmarks, recorder, logger },
      { feed: 'events', screen: EVENT_TEXT, matcher: EVENT_KEYWORDS },
    );
  }

  async activate(game: DetectedGame): Promise<void> {
    await this.#events.open();
    this.logger.info('Reading the event messages on screen', { game: game.name });
  }

  async deactivate(): Promise<void> {
    await this.#events.close();
  }
}
