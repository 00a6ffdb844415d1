// The signed-in user: tokens from `Login`, kept in the token store, handed to whoever calls the
// platform, renewed at the token endpoint when a JWT is about to expire or the platform refuses it.
// A refused renewal signs the user out and says so in a dialog. Tokens never reach a log or an event.
import { injectable } from 'tsyringe';
import { ServiceOptions } from '../service-options.js';
import { Notifier } from '../notices/notifier.js';
import { Logger } from '../support/logger.js';
import { needsRenewal } from './access-token.js';
import { RenewalRefused, renewTokens } from './token-endpoint.js';
import { TokenStore, type Tokens } from './token-store.js';

/** `logout`: the user asked, the tokens still work. `expired`: the platform refused the renewal. */
export type SignOutReason = 'logout' | 'expired';
export type SignOutListener = (reason: SignOutReason) => Promise<void> | void;

/** Raised where a token is needed and nobody is signed in (any more). */
export class SignedOut extends Error {
  constructor(message = 'You are not signed in: sign in to upload.') {
    super(message);
    this.name = 'SignedOut';
  }
}

@injectable()
export class AccountService {
  private tokens: Tokens | undefined;
  /** Set from `Logout` until the tokens are forgotten: no new work starts, running work may still use them to stop. */
  private signingOut = false;
  private renewal: Promise<string> | undefined;
  private readonly signOutListeners = new Set<SignOutListener>();
  private readonly logger: Logger;

  constructor(
    private readonly store: TokenStore,
    private readonly options: ServiceOptions,
    private readonly notifier: Notifier,
    logger: Logger,
  ) {
    this.logger = logger.child('account');
  }

  /** Picks up the session of the previous run. */
  async load(): Promise<void> {
    this.tokens = await this.store.load();
    this.logger.info(this.tokens ? 'signed in from the stored session' : 'not signed in');
  }

  get isSignedIn(): boolean {
    return this.tokens !== undefined && !this.signingOut;
  }

  async login(tokens: Tokens): Promise<void> {
    if (this.tokens?.accessToken === tokens.accessToken && this.tokens.refreshToken === tokens.refreshToken) return;
    this.tokens = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
    this.signingOut = false;
    await this.store.save(this.tokens);
    this.logger.info('signed in');
  }

  /** Signs out: those who hold work for the user stop it first (while the tokens still work), then the tokens are forgotten. */
  async logout(): Promise<void> {
    const leaving = this.tokens;
    this.signingOut = true;
    if (leaving) await this.notifySignOut('logout');
    // A `Login` while the uploads stopped is a new session, which stays.
    if (this.tokens !== leaving) return;
    this.tokens = undefined;
    this.signingOut = false;
    await this.store.clear();
    this.logger.info('signed out');
  }

  /** Called (and awaited) before the tokens are forgotten. */
  onSignOut(listener: SignOutListener): () => void {
    this.signOutListeners.add(listener);
    return () => this.signOutListeners.delete(listener);
  }

  /** A usable access token: the stored one, renewed first when it is a JWT that expires within 30 s. */
  async accessToken(): Promise<string> {
    if (!this.tokens) throw new SignedOut();
    return needsRenewal(this.tokens.accessToken) ? this.renew() : this.tokens.accessToken;
  }

  /** The platform refused `rejected` (HTTP 401): renews, unless another request has done so already. */
  async renewAfterRejection(rejected: string): Promise<string> {
    if (!this.tokens) throw new SignedOut();
    return this.tokens.accessToken === rejected ? this.renew() : this.tokens.accessToken;
  }

  /** One renewal at a time; everyone who needs a token meanwhile waits for it. */
  private renew(): Promise<string> {
    this.renewal ??= this.renewOnce().finally(() => {
      this.renewal = undefined;
    });
    return this.renewal;
  }

  private async renewOnce(): Promise<string> {
    const current = this.tokens;
    if (!current) throw new SignedOut();
    let renewed: Tokens;
    try {
      renewed = await renewTokens(this.options.platform.tokenUrl, this.options.platform.clientId, current.refreshToken);
    } catch (error) {
      if (!(error instanceof RenewalRefused) || this.tokens !== current) throw error;
      await this.expire(error.message);
      throw new SignedOut('Your sign-in expired: sign in again to upload.');
    }
    if (this.tokens !== current) {
      // Signed out or in again while the endpoint answered: that session wins.
      if (!this.tokens) throw new SignedOut();
      return this.tokens.accessToken;
    }
    this.tokens = renewed;
    await this.store.save(renewed);
    this.logger.info('sign-in renewed');
    return renewed.accessToken;
  }

  /** The refresh token was refused: forget the session at once (nothing can use it), then tell everyone. */
  private async expire(reason: string): Promise<void> {
    this.tokens = undefined;
    await this.store.clear();
    this.logger.warn('signed out: the sign-in could not be renewed', { reason });
    await this.notifySignOut('expired');
    this.notifier.showModal({
      title: 'Signed out',
      subtitle: 'Your sign-in expired',
      description: `${reason} Sign in again to upload videos.`,
      type: 'warning',
    });
  }

  private async notifySignOut(reason: SignOutReason): Promise<void> {
    for (const listener of this.signOutListeners) {
      try {
        await listener(reason);
      } catch (error) {
        this.logger.error('a sign-out listener failed', { error });
      }
    }
  }
}
