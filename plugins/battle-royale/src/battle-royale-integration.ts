// PUBG: watches the game's replay folder and turns each new replay's knocks and kills into the
// recording player's Kill and Death bookmarks, on the recording that covered each moment (still
// running or already finished). Active while the game runs, recording or not (the manifest's
// activation), since PUBG saves a replay only when its match has ended; README.md says how replays saved
// while the game was not running are read at the next activation.
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
} from '@keyframe/core';
import { readFile } from 'node:fs/promises';
import { inject, injectable } from 'tsyringe';
import { ReplayAssembler } from './replay-assembler.js';
import { readWhenComplete, replayFilesIn, replayFolderNames } from './replay-folder.js';
import { demosFolderOf, REPLAY_FILE_PATTERN, replayFileOf, replayFilePath } from './replay-layout.js';

const REPLAYS_FEED = 'replays';
/** How long a file of a missed replay may still be growing before it is given up. */
const MISSED_FILE_TIMEOUT_MS = 30_000;
/** PUBG matches last at most about 35 minutes, and the replay is saved as the match ends. */
const NO_REPLAY_TIMEOUT_MS = 45 * 60_000;
const NO_REPLAY_MESSAGE =
  'No PUBG replay has appeared in 45 minutes of play: kills and deaths come from the replay PUBG saves ' +
  "when a match ends. Check that replay recording is on in the game's settings (it is by default).";

@injectable()
export class BattleRoyaleIntegration implements GameIntegration {
  /** How long the game may run without a replay before health says so. */
  protected readonly noReplayTimeoutMs: number = NO_REPLAY_TIMEOUT_MS;
  /** A file of a replay saved while inactive counts as complete once unchanged this long (as the feed does). */
  protected readonly stableMs: number = 1000;

  readonly #assembler = new ReplayAssembler();
  /** Replay folders there when the integration was enabled: matches from before, never read. */
  #replaysBefore: Set<string> | undefined;
  #catchUp: AbortController | undefined;

  constructor(
    @inject(Feeds) private readonly feeds: FeedsService,
    @inject(Bookmarks) private readonly bookmarks: BookmarksService,
    @inject(Logger) private readonly logger: PluginLogger,
    @inject(Health) private readonly health: HealthReporter,
    @inject(GamePaths) private readonly gamePaths: GamePathsService,
  ) {}

  private get demosFolder(): string {
    return demosFolderOf(this.gamePaths.localAppData());
  }

  async enable(): Promise<void> {
    this.#replaysBefore = await replayFolderNames(this.demosFolder);
  }

  async activate(game: DetectedGame): Promise<void> {
    this.#replaysBefore ??= await replayFolderNames(this.demosFolder);
    const feed = this.feeds.watchFolder(REPLAYS_FEED, { folder: this.demosFolder, pattern: REPLAY_FILE_PATTERN, intervalMs: 2500 });
    // The feed reports a file once it has stopped growing.
    feed.onInput((input) => this.onReplayFile(input.path, () => readFile(input.absolutePath).catch(() => undefined)));
    // Each replay file starts the wait for the next one over.
    this.health.expectData({ within: this.noReplayTimeoutMs, message: NO_REPLAY_MESSAGE });
    try {
      await feed.ready;
    } catch (error) {
      throw new Error(`Cannot watch PUBG's replay folder ${this.demosFolder}: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
    this.logger.info(`Watching PUBG's replays in ${this.demosFolder}`, { game: game.name });
    // Not awaited: a replay still being written may take longer than an activation may.
    const catchUp = new AbortController();
    this.#catchUp = catchUp;
    void this.readMissedReplays(catchUp.signal).catch((error: unknown) => {
      this.logger.warn(
        `Reading the replays saved while PUBG was not running failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }

  async deactivate(): Promise<void> {
    this.#catchUp?.abort();
    this.#catchUp = undefined;
  }

  /** Replays saved since the integration was enabled that no feed reported: those saved while the game was not running. */
  private async readMissedReplays(signal: AbortSignal): Promise<void> {
    const replaysBefore = this.#replaysBefore ?? new Set<string>();
    for (const replay of await replayFolderNames(this.demosFolder)) {
      if (replaysBefore.has(replay)) continue;
      for (const relativePath of await replayFilesIn(this.demosFolder, replay)) {
        if (signal.aborted) return;
        const absolutePath = replayFilePath(this.demosFolder, relativePath);
        await this.onReplayFile(
          relativePath,
          () => readWhenComplete(absolutePath, { stableMs: this.stableMs, timeoutMs: MISSED_FILE_TIMEOUT_MS, signal }),
          signal,
        );
      }
    }
  }

  /** Each file once, whether the feed or the catch-up finds it first; a read aborted by deactivation is retried at the next activation. */
  private async onReplayFile(relativePath: string, read: () => Promise<Buffer | undefined>, signal?: AbortSignal): Promise<void> {
    const file = replayFileOf(relativePath);
    if (!file || !this.#assembler.claim(relativePath)) return;
    const bytes = await read();
    if (!bytes && signal?.aborted) {
      this.#assembler.release(relativePath);
      return;
    }
    if (!bytes) {
      this.logger.warn(
        `Skipped ${relativePath}: it could not be read (deleted, or still being written after ${MISSED_FILE_TIMEOUT_MS / 1000} s)`,
      );
      return;
    }
    const result = this.#assembler.accept(file, bytes);
    for (const problem of result.problems) this.logger.warn(problem);
    if (result.info) {
      this.logger.info(`Reading the replay ${file.replay}`, { matchStartedAt: result.info.matchStartedAt.toISOString() });
      this.health.degraded(undefined);
    }
    for (const bookmark of result.bookmarks) await this.bookmarks.add({ type: bookmark.type, at: bookmark.at });
  }
}
