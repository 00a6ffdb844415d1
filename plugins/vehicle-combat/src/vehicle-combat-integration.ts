// War Thunder: polls the game's local web interface for HUD messages and bookmarks the local player's
// kills and deaths; the player's nickname comes from the game's own client log.
import {
  Bookmarks,
  Clock,
  Feeds,
  GameFiles,
  GamePaths,
  Health,
  Logger,
  type BookmarksService,
  type ClockService,
  type DetectedGame,
  type FeedsService,
  type GameFilesService,
  type GameIntegration,
  type GamePathsService,
  type HealthReporter,
  type PluginLogger,
  type PollInput,
} from '@keyframe/core';
import { inject, injectable } from 'tsyringe';
import { BattleClock } from './battle-clock.js';
import { readHudMessage } from './hud-message-reader.js';
import { HudMessageTracker, type HudCursor } from './hud-message-tracker.js';
import { logFolderCandidates, readLocalNickname } from './local-nickname.js';

export const HUD_PORT = 8111;
export const POLL_INTERVAL_MS = 500;
const FEED_ID = 'hudmsg';
/** While the nickname is unknown, the log is read again at most this often (the player may not have logged in yet). */
const NICKNAME_RETRY_MS = 5_000;

export const NO_DATA_MESSAGE =
  `No data from War Thunder yet: its local web interface (http://127.0.0.1:${HUD_PORT}) does not answer. ` +
  'It answers once the game has loaded; if it never does, check that no firewall blocks it.';
export const NO_NICKNAME_MESSAGE =
  "War Thunder's client log (.game_logs/*.clog) names no logged-in player yet, so kills and deaths cannot be told " +
  "apart from other players': log in to the game; nothing is bookmarked until then.";

export function hudMessagesUrl(cursor: HudCursor): string {
  return `http://127.0.0.1:${HUD_PORT}/hudmsg?lastEvt=${cursor.lastEvt}&lastDmg=${cursor.lastDmg}`;
}

@injectable()
export class VehicleCombatIntegration implements GameIntegration {
  /** How long after activation silence from the game becomes a health warning. */
  protected readonly noDataTimeoutMs: number = 30_000;

  readonly #tracker = new HudMessageTracker();
  readonly #battleClock = new BattleClock(POLL_INTERVAL_MS);
  #logFolders: string[] = [];
  #nickname: string | undefined;
  #nicknameCheckedAt = 0;
  #receivedData = false;
  #previousAnswerAt: Date | undefined;
  #silent = false;
  #unanswered = false;
  #reportedHealth: string | undefined;
  #noDataTimer: NodeJS.Timeout | undefined;

  constructor(
    @inject(Feeds) private readonly feeds: FeedsService,
    @inject(Bookmarks) private readonly bookmarks: BookmarksService,
    @inject(GamePaths) private readonly paths: GamePathsService,
    @inject(GameFiles) private readonly files: GameFilesService,
    @inject(Clock) private readonly clock: ClockService,
    @inject(Logger) private readonly logger: PluginLogger,
    @inject(Health) private readonly health: HealthReporter,
  ) {}

  async activate(game: DetectedGame): Promise<void> {
    this.#logFolders = await logFolderCandidates(game.executablePath, this.paths);
    await this.lookUpNickname();

    this.#noDataTimer = setTimeout(() => {
      this.#noDataTimer = undefined;
      this.#silent = !this.#receivedData;
      this.reportHealth();
    }, this.noDataTimeoutMs);
    this.#noDataTimer.unref?.();
    // Asked before every request, so each one continues from the newest ids seen so far.
    const feed = this.feeds.poll(FEED_ID, { url: () => hudMessagesUrl(this.#tracker.cursor), intervalMs: POLL_INTERVAL_MS });
    feed.onInput((input) => this.onPoll(input));
    this.logger.info(`Polling War Thunder's HUD messages on 127.0.0.1:${HUD_PORT}`, { game: game.name });
  }

  async deactivate(): Promise<void> {
    if (this.#noDataTimer !== undefined) clearTimeout(this.#noDataTimer);
    this.#noDataTimer = undefined;
    this.#tracker.reset(); // the next activation may be another battle: it starts from a new baseline
    this.#battleClock.reset();
    this.#nickname = undefined;
    this.#receivedData = false;
    this.#previousAnswerAt = undefined;
    this.#silent = false;
    this.#unanswered = false;
    // Idle is not an error: what was wrong during this activation says nothing about the next.
    if (this.#reportedHealth !== undefined) this.health.degraded(undefined);
    this.#reportedHealth = undefined;
  }

  private async onPoll(input: PollInput): Promise<void> {
    if ('error' in input || input.status < 200 || input.status > 299) {
      this.noteUnanswered('error' in input ? input.error : `HTTP ${input.status}`);
      return;
    }
    this.#unanswered = false;
    const arrivedAt = this.clock.now();
    const update = this.#tracker.update(input.body);
    if (update.outcome === 'malformed') {
      this.logger.debug(`Ignored a /hudmsg answer: ${update.reason}`, { bytes: input.body.length });
      return;
    }
    if (!this.#receivedData) {
      this.#receivedData = true;
      this.#silent = false;
      this.logger.info('War Thunder answers on its local web interface');
      this.reportHealth();
    }
    if (this.#nickname === undefined && arrivedAt.getTime() - this.#nicknameCheckedAt >= NICKNAME_RETRY_MS) {
      await this.lookUpNickname();
    }

    const window = { after: this.#previousAnswerAt, arrivedAt };
    this.#previousAnswerAt = arrivedAt;
    if (update.outcome === 'baseline') {
      this.#battleClock.reset();
      this.logger.debug(`Baseline: ${update.reason}`, { ...this.#tracker.cursor });
    } else {
      for (const message of update.messages) {
        const at = this.#battleClock.place(window, message.gameSeconds);
        const type = this.#nickname === undefined ? undefined : readHudMessage(message.text, this.#nickname);
        if (type === undefined) continue;
        await this.bookmarks.add({ type, at });
      }
    }
  }

  /** The game not answering is normal while it loads or sits in its launcher: logged once per streak, never an error. */
  private noteUnanswered(why: string): void {
    if (this.#unanswered) return;
    this.#unanswered = true;
    this.logger.debug(`War Thunder's web interface does not answer: ${why}`);
  }

  private async lookUpNickname(): Promise<void> {
    this.#nicknameCheckedAt = this.clock.now().getTime();
    const lookup = await readLocalNickname(this.#logFolders, this.files);
    if (lookup.nickname === undefined) {
      this.logger.debug(`No nickname yet: ${lookup.reason}`);
    } else {
      this.#nickname = lookup.nickname;
      this.logger.info("Found the local player in War Thunder's client log", { file: lookup.file });
    }
    this.reportHealth();
  }

  private reportHealth(): void {
    const reason = this.#silent ? NO_DATA_MESSAGE : this.#nickname === undefined ? NO_NICKNAME_MESSAGE : undefined;
    if (reason === this.#reportedHealth) return;
    this.#reportedHealth = reason;
    this.health.degraded(reason);
  }
}
