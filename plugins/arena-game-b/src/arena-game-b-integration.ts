// Dota 2: installs the Game State Integration config, listens for the game's pushes on loopback port
// 1341 and bookmarks the local player's kills, deaths and assists.
import {
  Bookmarks,
  Clock,
  Feeds,
  GamePaths,
  Health,
  IntegrationSettings,
  Logger,
  openJsonPushFeed,
  pushPortOf,
  readJsonPush,
  type BookmarksService,
  type ClockService,
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
import { GSI_CONFIG_FILE_NAME, GSI_LAUNCH_OPTION, gsiConfig } from './gsi-config.js';
import { GsiMatchTracker } from './gsi-match-tracker.js';

export const NO_DATA_MESSAGE = `No data from Dota 2 yet: is the config installed, the launch option ${GSI_LAUNCH_OPTION} set and the game restarted?`;
export const NO_PLAYER_DATA_MESSAGE = `Dota 2 sends no player kills/deaths/assists during the match: check that ${GSI_CONFIG_FILE_NAME} has "player" "1" in its data block, then restart the game.`;
export const RESTART_TITLE = 'Restart Dota 2';
const RESTART_DESCRIPTION =
  `Keyframe installed its game state config for Dota 2. Add ${GSI_LAUNCH_OPTION} to Dota 2's launch options ` +
  '(Steam → Dota 2 → Properties → General → Launch options) if it is not there yet, then restart the game so that ' +
  'kills, deaths and assists are bookmarked.';

@injectable()
export class ArenaGameBIntegration implements GameIntegration {
  /** How long after activation silence from the game becomes a health warning. */
  protected readonly noDataTimeoutMs: number = 30_000;

  readonly #tracker = new GsiMatchTracker();
  #receivedData = false;
  /** A config that could not be written: stays in health until the game proves it sends anyway. */
  #configProblem: string | undefined;

  constructor(
    @inject(Feeds) private readonly feeds: FeedsService,
    @inject(Bookmarks) private readonly bookmarks: BookmarksService,
    @inject(Clock) private readonly clock: ClockService,
    @inject(GamePaths) private readonly paths: GamePathsService,
    @inject(Logger) private readonly logger: PluginLogger,
    @inject(Health) private readonly health: HealthReporter,
    @inject(IntegrationSettings) private readonly settings: IntegrationSettingsService,
  ) {}

  async enable(): Promise<void> {
    await this.installConfigs(await this.feeds.pushToken(), undefined);
  }

  async activate(game: DetectedGame): Promise<void> {
    this.#receivedData = false;
    const token = await this.feeds.pushToken();
    // SPEC: the config is written the first time the game is detected; usually it is already there.
    await this.installConfigs(token, game.executablePath);

    this.health.expectData({ within: this.noDataTimeoutMs, message: NO_DATA_MESSAGE, onlyFirst: true });
    const onTokenRefused = (message: string) => this.health.degraded(message);
    const port = pushPortOf(this.settings);
    await openJsonPushFeed(this.feeds, { id: 'gsi', port, game: 'Dota 2', token, onTokenRefused }, (input) => this.onPush(input));
    this.logger.info(`Listening for Dota 2 game state on 127.0.0.1:${port}`, { game: game.name });
  }

  async deactivate(): Promise<void> {
    this.#tracker.reset();
    // The game is gone or the recording stopped: that is idle, not a problem to keep showing.
    this.health.degraded(this.#configProblem);
  }

  private async onPush(input: HttpPushInput): Promise<void> {
    const push = readJsonPush(input, this.logger);
    if (push === undefined) return;
    // Read first: every bookmark of a multi-kill push gets the same time, however long adding them takes.
    const receivedAt = this.clock.now();

    const update = this.#tracker.update(push.payload);
    if (update.outcome === 'foreign') {
      this.logger.debug(`Ignored a push: ${update.reason}`, { userAgent: input.userAgent });
      return;
    }
    if (!this.#receivedData) {
      this.#receivedData = true;
      this.#configProblem = undefined;
      this.logger.info('Dota 2 is sending game state');
    }
    this.health.degraded(update.outcome === 'incomplete' ? NO_PLAYER_DATA_MESSAGE : undefined);
    if (update.outcome === 'baseline') this.logger.debug(`Baseline: ${update.reason}`, { ...this.#tracker.baseline });

    for (const event of update.events) {
      for (let index = 0; index < event.count; index++) {
        await this.bookmarks.add({ type: event.type, at: receivedAt });
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
    const { failedEverywhere } = config.logReport(report, 'Dota 2', this.logger);
    if (report.folders.length === 0) return;
    if (report.written.length > 0) this.health.notify(RESTART_TITLE, RESTART_DESCRIPTION);
    this.#configProblem = failedEverywhere
      ? `Could not write ${GSI_CONFIG_FILE_NAME} into ${report.failed.map(({ folder }) => folder).join(', ')}: create it by hand, add ${GSI_LAUNCH_OPTION} to the launch options and restart Dota 2.`
      : report.keptStaleUserEdits.length > 0
        ? `Your ${GSI_CONFIG_FILE_NAME} in ${report.keptStaleUserEdits.join(', ')} has no "auth" block with Keyframe's token, so Dota 2's pushes are refused: ${config.staleAdvice('Dota 2')}`
        : undefined;
    this.health.degraded(this.#configProblem);
  }
}
