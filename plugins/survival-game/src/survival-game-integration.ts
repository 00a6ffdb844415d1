// Rust: follows the client's output_log.txt beside RustClient.exe and bookmarks every death of the
// local player. The client logs no kills by the local player, so deaths are all there is.
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
import { isDeathLine } from './death-line.js';
import { OUTPUT_LOG_NAME, outputLogCandidates } from './output-log-locations.js';

const NO_LOCATION_MESSAGE =
  `Cannot tell where Rust writes ${OUTPUT_LOG_NAME}: the game's executable path is unknown ` +
  'and no Steam library holds Rust. Deaths are not bookmarked.';

const missingLogMessage = (candidates: readonly string[]) =>
  `Rust's ${OUTPUT_LOG_NAME} was not found (looked for ${candidates.join(', ')}): ` +
  'deaths are bookmarked once the game writes it. Is Rust installed there?';

@injectable()
export class SurvivalGameIntegration implements GameIntegration {
  /** How long after activation a log file that still does not exist becomes a health warning. */
  protected readonly missingLogTimeoutMs: number = 30_000;

  constructor(
    @inject(Feeds) private readonly feeds: FeedsService,
    @inject(Bookmarks) private readonly bookmarks: BookmarksService,
    @inject(Logger) private readonly logger: PluginLogger,
    @inject(Health) private readonly health: HealthReporter,
    @inject(GamePaths) private readonly gamePaths: GamePathsService,
  ) {}

  async activate(game: DetectedGame): Promise<void> {
    const candidates = outputLogCandidates(game.executablePath, await this.steamLibraries());
    if (candidates.length === 0) {
      this.health.degraded(NO_LOCATION_MESSAGE);
      return;
    }
    const feed = this.feeds.tail('log', { paths: candidates });
    feed.onInput((input) => this.onLogInput(input));
    // The tail's first input is the log opening; the SDK's tail does not say when no candidate exists.
    this.health.expectData({ within: this.missingLogTimeoutMs, message: missingLogMessage(candidates), onlyFirst: true });
    this.logger.info(`Watching for Rust's ${OUTPUT_LOG_NAME}`, { game: game.name, candidates });
  }

  async deactivate(): Promise<void> {}

  private async onLogInput(input: TailInput): Promise<void> {
    if ('reset' in input) {
      if (input.reset === 'opened') {
        // The feed itself logs which file it follows.
        this.health.degraded(undefined);
      } else {
        this.logger.debug(`${input.file} was ${input.reset}: reading it from its start`);
      }
      return;
    }
    if (!isDeathLine(input.line)) return;
    await this.bookmarks.add({ type: 'Death' });
  }

  /** The Steam libraries, or none when they cannot be listed: the executable's folder is the better guess anyway. */
  private async steamLibraries(): Promise<string[]> {
    try {
      return await this.gamePaths.steamLibraries();
    } catch (error) {
      this.logger.debug('Steam libraries could not be listed', { error: error instanceof Error ? error.message : String(error) });
      return [];
    }
  }
}
