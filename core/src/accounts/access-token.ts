// What can be told about an access token without asking anyone: when a JWT expires. Opaque tokens
// (anything not a JWT with a numeric `exp`) have no known expiry and are renewed only when refused.

/** Renew this long before `exp`, so a token does not expire between the check and the request. */
export const EXPIRY_MARGIN_MS = 30_000;

/** The `exp` of a JWT as a time in ms; `undefined` for tokens that are not JWTs or carry no `exp`. */
export function jwtExpiry(token: string): number | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[1] === undefined) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    const exp = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>).exp : undefined;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** True when the token is a JWT that has expired or will within the margin. */
export function needsRenewal(token: string, now = Date.now()): boolean {
  const expiry = jwtExpiry(token);
  return expiry !== undefined && expiry - EXPIRY_MARGIN_MS <= now;
}
