// Minecraft Java Edition: follows the client's `logs/latest.log` and bookmarks the local player's
// deaths from the death messages the game prints in chat. Bedrock Edition writes no such log.
import {
  Bookmarks,
  Feeds,
  GamePaths,
  Health,
  IntegrationSettings,
  Logger,
  type BookmarksService,
  type DetectedGame,
  type FeedsService,
  type GameIntegration,
  type GamePathsService,
  type HealthReporter,
  type IntegrationSettingsService,
  type PluginLogger,
  type TailInput,
} from '@keyframe/core';
import { inject, injectable } from 'tsyringe';
import { blockSandboxSettings, type BlockSandboxSettings } from './block-sandbox-settings.js';
import { minecraftLogCandidates } from './minecraft-log-locations.js';
import { PlayerDeathTracker } from './player-death-tracker.js';
import { scanPlayerName } from './player-name-scan.js';

/** The manifest's name for the Bedrock Edition, detected only to say that it is not supported. */
export const BEDROCK_GAME_NAME = 'Minecraft: Bedrock Edition';

export const BEDROCK_UNSUPPORTED_MESSAGE =
  'Minecraft Bedrock Edition is not supported: it writes no log of deaths. Play the Java Edition to get death bookmarks.';

const missingLogMessage = (candidates: readonly string[]) =>
  `No Minecraft Java Edition log found at ${candidates.join(', ')}: ` +
  'start the game from the Minecraft Launcher or Prism Launcher. Bedrock Edition is not supported.';

const noPlayerMessage = (file: string, reason: string) =>
  `Minecraft's log ${file} does not name the player (${reason}), so their deaths cannot be told from others': ` +
  'deaths are bookmarked once the game writes its "Setting user:" line, at its next start.';

@injectable()
export class BlockSandboxIntegration implements GameIntegration {
  static readonly settings = blockSandboxSettings;

  /** How long after activation a log file that still does not exist becomes a health warning. */
  protected readonly missingLogTimeoutMs: number = 30_000;

  readonly #tracker = new PlayerDeathTracker();

  constructor(
    @inject(Feeds) private readonly feeds: FeedsService,
    @inject(Bookmarks) private readonly bookmarks: BookmarksService,
    @inject(GamePaths) private readonly gamePaths: GamePathsService,
    @inject(Logger) private readonly logger: PluginLogger,
    @inject(Health) private readonly health: HealthReporter,
    @inject(IntegrationSettings) private readonly settings: IntegrationSettingsService<BlockSandboxSettings>,
  ) {}

  async activate(game: DetectedGame): Promise<void> {
    if (game.name === BEDROCK_GAME_NAME) {
      this.health.degraded(BEDROCK_UNSUPPORTED_MESSAGE);
      return;
    }
    // Read at each activation: the settings cannot change during a recording.
    const candidates = await minecraftLogCandidates(this.gamePaths, this.settings.values.gameFolder);
    // latin1 hands every byte over unchanged: the tracker decodes UTF-8, GBK or Windows-1252 itself.
    const feed = this.feeds.tail('log', { paths: candidates, encoding: 'latin1' });
    feed.onInput((input) => this.onLogInput(input));
    // The tail's first input is the log opening; the SDK's tail does not say when no candidate exists.
    this.health.expectData({ within: this.missingLogTimeoutMs, message: missingLogMessage(candidates), onlyFirst: true });
    this.logger.info('Looking for the Minecraft Java Edition log', { game: game.name, candidates: candidates.length });
  }

  async deactivate(): Promise<void> {
    this.#tracker.setPlayer(undefined); // the next activation may be another account
  }

  private async onLogInput(input: TailInput): Promise<void> {
    if ('reset' in input) {
      if (input.reset === 'opened') await this.onLogOpened(input.file);
      else this.logger.debug(`The log was ${input.reset}: reading it from its start`, { file: input.file });
      return;
    }
    const meaning = this.#tracker.read(input.line);
    if (meaning.kind === 'player') {
      this.logger.info('Minecraft player found in the log', { player: meaning.name });
      this.health.degraded(undefined);
    } else if (meaning.kind === 'death') {
      if (await this.bookmarks.add({ type: 'Death' })) this.logger.debug('Death bookmarked', { message: meaning.template });
    }
  }

  /** The feed follows a log from its end: the name of the player was written at its start. */
  private async onLogOpened(file: string): Promise<void> {
    let player: string | undefined;
    let reason = 'no "Setting user:" line';
    try {
      player = await scanPlayerName(file);
    } catch (error) {
      reason = `cannot read it: ${error instanceof Error ? error.message : String(error)}`;
    }
    this.#tracker.setPlayer(player);
    if (player === undefined) {
      this.logger.warn(`No player name in the Minecraft log (${reason})`, { file });
      this.health.degraded(noPlayerMessage(file, reason));
      return;
    }
    this.logger.info('Following the Minecraft log', { file, player });
    this.health.degraded(undefined);
  }
}
