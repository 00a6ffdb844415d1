// League of Legends: polls the game's Live Client Data API on 127.0.0.1:2999 during a match and
// bookmarks the local player's kills, deaths and assists at the game time they happened.
import {
  Bookmarks,
  Clock,
  Feeds,
  Health,
  Logger,
  type BookmarksService,
  type ClockService,
  type DetectedGame,
  type FeedsService,
  type GameIntegration,
  type HealthReporter,
  type PluginLogger,
  type PollInput,
} from '@keyframe/core';
import { inject, injectable } from 'tsyringe';
import { FeedHealth, type PollOutcome } from './feed-health.js';
import { readAllGameData } from './live-client-data.js';
import { MatchTracker } from './match-tracker.js';

export const FEED_ID = 'allgamedata';
export const ALL_GAME_DATA_URL = 'https://127.0.0.1:2999/liveclientdata/allgamedata';
export const POLL_INTERVAL_MS = 250;

@injectable()
export class ArenaGameAIntegration implements GameIntegration {
  readonly #tracker = new MatchTracker();
  #health: FeedHealth | undefined;
  /** The last kind of answer, so the log tells changes rather than four lines a second. */
  #lastOutcome: PollOutcome['kind'] | undefined;

  constructor(
    @inject(Feeds) private readonly feeds: FeedsService,
    @inject(Bookmarks) private readonly bookmarks: BookmarksService,
    @inject(Clock) private readonly clock: ClockService,
    @inject(Logger) private readonly logger: PluginLogger,
    @inject(Health) private readonly health: HealthReporter,
  ) {}

  async activate(game: DetectedGame): Promise<void> {
    this.#health = new FeedHealth(this.clock.now());
    // The game serves its API over HTTPS with its own self-signed certificate.
    const feed = this.feeds.poll(FEED_ID, { url: ALL_GAME_DATA_URL, intervalMs: POLL_INTERVAL_MS, acceptSelfSignedCertificate: true });
    feed.onInput((input) => this.onPoll(input));
    this.logger.info(`Polling ${ALL_GAME_DATA_URL} every ${POLL_INTERVAL_MS} ms`, { game: game.name });
  }

  async deactivate(): Promise<void> {
    this.#health = undefined;
    this.#lastOutcome = undefined;
    this.#tracker.reset(); // the next activation may be another match: it starts from a new baseline
  }

  private async onPoll(input: PollInput): Promise<void> {
    const at = this.clock.now();

    // Refused, timed out or not 2xx: no match data (not in a match yet, loading, or closing).
    if ('error' in input || input.status < 200 || input.status > 299) {
      this.report({ kind: 'silent', detail: 'error' in input ? input.error : `HTTP ${input.status}` }, at);
      return;
    }
    const reading = readAllGameData(input.body);
    this.report(reading.kind === 'playing' ? { kind: 'playing' } : reading, at);
    // A spectated match is another match: our own next one starts from a new baseline.
    if (reading.kind === 'spectating') this.#tracker.reset();
    if (reading.kind !== 'playing') return;

    const update = this.#tracker.update(reading.snapshot);
    if (update.outcome === 'baseline') {
      this.logger.info(`Baseline: ${update.reason}`, {
        gameMode: reading.snapshot.gameMode,
        gameTime: reading.snapshot.gameTime,
        ...reading.snapshot.scores,
      });
      return;
    }
    for (const event of update.events) {
      await this.bookmarks.add({ type: event.type, at: new Date(at.getTime() - event.secondsBefore * 1000) });
    }
  }

  private report(outcome: PollOutcome, at: Date): void {
    this.health.degraded(this.#health?.observe(outcome, at));
    if (outcome.kind === this.#lastOutcome) return;
    this.#lastOutcome = outcome.kind;
    // Never the body: it names every player of the match.
    const detail = outcome.kind === 'silent' ? outcome.detail : outcome.kind === 'unreadable' ? outcome.reason : undefined;
    this.logger.info(`League of Legends: ${OUTCOME_TEXT[outcome.kind]}`, detail === undefined ? undefined : { detail });
  }
}

const OUTCOME_TEXT: Record<PollOutcome['kind'], string> = {
  playing: 'in a match',
  spectating: 'spectating, nothing is bookmarked',
  silent: 'no match data (not in a match, or loading)',
  unreadable: 'answers that cannot be read are ignored',
};
