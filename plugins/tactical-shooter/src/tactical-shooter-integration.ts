// Counter-Strike 2: installs the Game State Integration config, listens for the game's pushes on
// loopback port 1340 and bookmarks the local player's kills and deaths.
import {
  Bookmarks,
  Feeds,
  GamePaths,
  Health,
  IntegrationSettings,
  Logger,
  openJsonPushFeed,
  pushPortOf,
  readJsonPush,
  type BookmarksService,
  type DetectedGame,
  type FeedsService,
  type GameIntegration,
  type GamePathsService,
  type HealthReporter,
  type HttpPushInput,
  type IntegrationSettingsService,
  type PluginLogger,
} from '@keyframe/core';
import { inject, injectable } from 'tsyringe';
import { GSI_CONFIG_FILE_NAME, gsiConfig } from './gsi-config.js';
import { GsiMatchTracker } from './gsi-match-tracker.js';

const NO_DATA_MESSAGE = 'No data from Counter-Strike 2 yet: is the config installed and the game restarted?';

@injectable()
export class TacticalShooterIntegration implements GameIntegration {
  /** How long after activation silence from the game becomes a health warning. */
  protected readonly noDataTimeoutMs: number = 30_000;

  readonly #tracker = new GsiMatchTracker();
  #receivedData = false;
  /** A config that could not be written or lacks the token: stays in health until the game proves it sends anyway. */
  #configProblem: string | undefined;
  /** Health says pushes were refused: the game sends with a stale config (or someone else posts). */
  #refusalShown = false;

  constructor(
    @inject(Feeds) private readonly feeds: FeedsService,
    @inject(Bookmarks) private readonly bookmarks: BookmarksService,
    @inject(GamePaths) private readonly paths: GamePathsService,
    @inject(Logger) private readonly logger: PluginLogger,
    @inject(Health) private readonly health: HealthReporter,
    @inject(IntegrationSettings) private readonly settings: IntegrationSettingsService,
  ) {}

  async enable(): Promise<void> {
    await this.installConfigs(await this.feeds.pushToken(), undefined);
  }

  async activate(game: DetectedGame): Promise<void> {
    this.#tracker.reset();
    this.#receivedData = false;
    const token = await this.feeds.pushToken();
    // SPEC: the config is written the first time the game is detected; usually it is already there.
    await this.installConfigs(token, game.executablePath);

    this.health.expectData({ within: this.noDataTimeoutMs, message: NO_DATA_MESSAGE, onlyFirst: true });
    const onTokenRefused = (message: string) => {
      this.#refusalShown = true;
      this.health.degraded(message);
    };
    const port = pushPortOf(this.settings);
    await openJsonPushFeed(this.feeds, { id: 'gsi', port, game: 'Counter-Strike 2', token, onTokenRefused }, (input) => this.onPush(input));
    this.logger.info(`Listening for Counter-Strike 2 game state on 127.0.0.1:${port}`, { game: game.name });
  }

  async deactivate(): Promise<void> {
    this.#tracker.reset();
    // The game is gone or the recording stopped: refused pushes are no longer news.
    if (this.#refusalShown) this.health.degraded(this.#configProblem);
    this.#refusalShown = false;
  }

  private async onPush(input: HttpPushInput): Promise<void> {
    const push = readJsonPush(input, this.logger);
    if (push === undefined) return;

    const update = this.#tracker.update(push.payload);
    if (update.outcome === 'foreign') {
      this.logger.debug(`Ignored a push: ${update.reason}`, { userAgent: input.userAgent });
      return;
    }
    if (!this.#receivedData) {
      this.#receivedData = true;
      this.#configProblem = undefined;
      this.health.degraded(undefined);
      this.logger.info('Counter-Strike 2 is sending game state');
    }
    if (update.outcome === 'baseline') this.logger.debug(`Baseline: ${update.reason}`, { ...this.#tracker.baseline });

    for (const event of update.events) {
      for (let index = 0; index < event.count; index++) {
        await this.bookmarks.add({ type: event.type });
      }
    }
  }

  /**
   * Installs the config wherever the game is; `executablePath` adds the running game's own folder.
   * Never throws: a config the user installed by hand works just as well.
   */
  private async installConfigs(token: string, executablePath: string | undefined): Promise<void> {
    const config = gsiConfig(token, pushPortOf(this.settings));
    const report = await config.installForGame(this.paths, executablePath);
    const { failedEverywhere } = config.logReport(report, 'Counter-Strike 2', this.logger);
    if (report.written.length > 0) {
      this.health.notify(
        'Restart Counter-Strike 2',
        'Keyframe installed its game state config for Counter-Strike 2. Restart the game so that kills and deaths are bookmarked.',
      );
    }
    this.#configProblem = failedEverywhere
      ? `Could not write ${GSI_CONFIG_FILE_NAME} into ${report.failed.map(({ folder }) => folder).join(', ')}: create it by hand, then restart Counter-Strike 2.`
      : report.keptStaleUserEdits.length > 0
        ? `Your ${GSI_CONFIG_FILE_NAME} in ${report.keptStaleUserEdits.join(', ')} has no "auth" block with Keyframe's token, so Counter-Strike 2's ` +
          `pushes are refused: ${config.staleAdvice('Counter-Strike 2')}`
        : undefined;
    if (this.#configProblem !== undefined) this.health.degraded(this.#configProblem);
  }
}
