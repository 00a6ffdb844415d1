// RuneScape: Dragonwilds: follows the client log in the per-user local app-data folder and bookmarks
// every death of the local player (its input mode changing into the dead state).
import {
  Bookmarks,
  Feeds,
  GamePaths,
  Health,
  Logger,
  type BookmarksService,
  type DetectedGame,
  type FeedsService,
  type GameIntegration,
  type GamePathsService,
  type HealthReporter,
  type PluginLogger,
  type TailInput,
} from '@keyframe/core';
import { inject, injectable } from 'tsyringe';
import { clientLogPath } from './client-log-location.js';
import { InputModeTracker } from './input-mode-tracker.js';

const missingLogMessage = (logFile: string) =>
  `The RuneScape: Dragonwilds client log was not found at ${logFile}: deaths are bookmarked once the game writes it there.`;

@injectable()
export class FantasySurvivalIntegration implements GameIntegration {
  /** How long after activation a client log that still does not exist becomes a health warning. */
  protected readonly missingLogTimeoutMs: number = 30_000;

  readonly #tracker = new InputModeTracker();

  constructor(
    @inject(Feeds) private readonly feeds: FeedsService,
    @inject(Bookmarks) private readonly bookmarks: BookmarksService,
    @inject(Logger) private readonly logger: PluginLogger,
    @inject(Health) private readonly health: HealthReporter,
    @inject(GamePaths) private readonly gamePaths: GamePathsService,
  ) {}

  async activate(game: DetectedGame): Promise<void> {
    const logFile = clientLogPath(this.gamePaths.localAppData());
    const feed = this.feeds.tail('log', { paths: [logFile] });
    feed.onInput((input) => this.onLogInput(input));
    // The tail's first input is the log opening; the SDK's tail does not say when no candidate exists.
    this.health.expectData({ within: this.missingLogTimeoutMs, message: missingLogMessage(logFile), onlyFirst: true });
    this.logger.info(`Watching for the client log ${logFile}`, { game: game.name });
  }

  async deactivate(): Promise<void> {
    this.#tracker.reset(); // the next activation may be another game session
  }

  private async onLogInput(input: TailInput): Promise<void> {
    if ('reset' in input) {
      // A new or restarted log is a new game session: whatever mode the old one ended in is gone.
      this.#tracker.reset();
      if (input.reset === 'opened') {
        // The feed itself logs which file it follows.
        this.health.degraded(undefined);
      } else {
        this.logger.debug(`${input.file} was ${input.reset}: reading it from its start`);
      }
      return;
    }
    if (!this.#tracker.read(input.line)) return;
    await this.bookmarks.add({ type: 'Death' });
  }
}
