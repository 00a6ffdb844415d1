// Decides what the integration's health entry says from what the polls bring back, by the time of
// each answer (a tape's virtual clock or the live one), so no timer is needed: the feed polls steadily.

/** What one poll brought back, reduced to what health cares about. */
export type PollOutcome =
  | { readonly kind: 'playing' }
  | { readonly kind: 'spectating' }
  /** No answer (refused, timed out) or an error status: the game is not serving data (yet). */
  | { readonly kind: 'silent'; readonly detail: string }
  | { readonly kind: 'unreadable'; readonly reason: string };

/** Long enough for a slow loading screen, during which the game serves nothing. */
export const SILENCE_LIMIT_MS = 180_000;
/** Answers we cannot read for this long mean a game update changed them, not one bad answer. */
export const UNREADABLE_LIMIT_MS = 10_000;

export const SPECTATING_MESSAGE =
  'Spectating: League of Legends has no player of your own while you watch a game, so nothing is bookmarked.';

export function silenceMessage(detail: string): string {
  return (
    `No data from League of Legends on 127.0.0.1:2999 yet (${detail}): bookmarks start once a match has loaded. ` +
    'If you are in a match, check that no firewall or other program blocks local connections to port 2999.'
  );
}

export function unreadableMessage(reason: string): string {
  return (
    `League of Legends answers on 127.0.0.1:2999 with data Keyframe cannot read (${reason}): ` +
    'nothing is bookmarked. Keyframe may need an update for this version of the game.'
  );
}

export class FeedHealth {
  /** Since when nothing usable (own data or spectator data) has come. */
  #quietSince: number;
  /** Since when every answer has been unreadable; `undefined` while answers are fine. */
  #unreadableSince: number | undefined;
  #reason: string | undefined;

  constructor(startedAt: Date) {
    this.#quietSince = startedAt.getTime();
  }

  /** The degraded reason after this outcome, or `undefined` for healthy. */
  observe(outcome: PollOutcome, at: Date): string | undefined {
    const now = at.getTime();
    if (outcome.kind !== 'unreadable') this.#unreadableSince = undefined;
    switch (outcome.kind) {
      case 'playing':
        this.#quietSince = now;
        this.#reason = undefined;
        break;
      case 'spectating':
        this.#quietSince = now;
        this.#reason = SPECTATING_MESSAGE;
        break;
      case 'silent':
        if (now - this.#quietSince >= SILENCE_LIMIT_MS) this.#reason = silenceMessage(outcome.detail);
        break;
      case 'unreadable':
        this.#unreadableSince ??= now;
        if (now - this.#unreadableSince >= UNREADABLE_LIMIT_MS) this.#reason = unreadableMessage(outcome.reason);
        break;
    }
    return this.#reason;
  }
}
