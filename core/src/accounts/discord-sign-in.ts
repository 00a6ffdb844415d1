// Discord sign-in, which a frontend may offer (LoginWithDiscord, CancelDiscordLogin). The hosting platform
// Keyframe signs in to (platform-endpoints.ts: one OAuth 2 token endpoint, refresh grants only) has no
// Discord sign-in, so a request is answered at once with a failure that says how to sign in instead,
// never left waiting for a browser that is not opened.
import { inject, injectable } from 'tsyringe';
import { Notifier } from '../notices/notifier.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { Logger } from '../support/logger.js';

export const DISCORD_UNAVAILABLE =
  "Keyframe's account platform does not offer Discord sign-in. Sign in with your Keyframe account instead: " +
  "with its email and password where your app offers that, or with the access and refresh tokens of a session in Keyframe's Settings > Account.";

@injectable()
export class DiscordSignIn {
  private readonly logger: Logger;

  constructor(
    private readonly notifier: Notifier,
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('account');
  }

  /** Answers `DiscordLoginResult` `error` and shows the user why. */
  start(): void {
    this.logger.info('Discord sign-in asked for: not available');
    this.events.send('DiscordLoginResult', { status: 'error', message: DISCORD_UNAVAILABLE });
    this.notifier.showModal({ title: 'Discord sign-in is not available', description: DISCORD_UNAVAILABLE, type: 'error' });
  }

  /** Nothing is pending, so there is nothing to stop; the frontend still gets its answer. */
  cancel(): void {
    this.events.send('DiscordLoginResult', { status: 'cancelled' });
  }
}
