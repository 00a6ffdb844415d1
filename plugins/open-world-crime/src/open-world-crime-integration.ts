// GTA V (and FiveM, RAGE Multiplayer) tell nothing to the outside: this integration reads the
// "WASTED" of the death screen from the recording's frames (OCR) and bookmarks the local player's deaths.
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
import { WASTED_KEYWORDS, WASTED_TEXT } from './wasted-text.js';

@injectable()
export class OpenWorldCrimeIntegration implements GameIntegration {
  readonly #deaths: ScreenTextBookmarks;

  constructor(
    @inject(Feeds) feeds: FeedsService,
    @inject(Bookmarks) bookmarks: BookmarksService,
    @inject(Recorder) recorder: RecorderView,
    @inject(Logger) private readonly logger: PluginLogger,
  ) {
    this.#deaths = new ScreenTextBookmarks(
      { feeds, bookmarks, recorder, logger },
      { feed: 'deaths', screen: WASTED_TEXT, matcher: WASTED_KEYWORDS },
    );
  }

  async activate(game: DetectedGame): Promise<void> {
    await this.#deaths.open();
    this.logger.info('Reading the death screen on screen', { game: game.name });
  }

  async deactivate(): Promise<void> {
    await this.#deaths.close();
  }
}
