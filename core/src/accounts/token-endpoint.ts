// Renewal at the platform's OAuth 2 token endpoint (RFC 6749 §6: `grant_type=refresh_token`).
import type { Tokens } from './token-store.js';

const RENEWAL_TIMEOUT_MS = 30_000;

/** The endpoint answered that the refresh token is no good (expired, revoked): only a new sign-in helps. */
export class RenewalRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenewalRefused';
  }
}

/**
 * New tokens for `refreshToken`. Rejects with `RenewalRefused` when the endpoint refuses the grant
 * (HTTP 400 or 401, as RFC 6749 §5.2 has it), with a plain `Error` when it could not be asked.
 */
export async function renewTokens(tokenUrl: string, clientId: string, refreshToken: string): Promise<Tokens> {
  const response = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId }),
    signal: AbortSignal.timeout(RENEWAL_TIMEOUT_MS),
  });
  const body: unknown = await response.json().catch(() => undefined);
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (response.status === 400 || response.status === 401) {
    const reason =
      typeof fields.error_description === 'string'
        ? fields.error_description
        : typeof fields.error === 'string'
          ? fields.error
          : `HTTP ${response.status}`;
    throw new RenewalRefused(`The sign-in could not be renewed: ${reason}.`);
  }
  if (!response.ok) throw new Error(`The token endpoint answered HTTP ${response.status}.`);
  if (typeof fields.access_token !== 'string' || fields.access_token === '') {
    throw new Error('The token endpoint answered without an access_token.');
  }
  // A server that does not rotate refresh tokens leaves the old one valid (RFC 6749 §6).
  const renewed = typeof fields.refresh_token === 'string' && fields.refresh_token !== '' ? fields.refresh_token : refreshToken;
  return { accessToken: fields.access_token, refreshToken: renewed };
}
