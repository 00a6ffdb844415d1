// Checking the token a game's push carries (`"auth": {"token": "…"}` at the top of a Valve GSI body).
import { createHash, timingSafeEqual } from 'node:crypto';

/** The `auth.token` of a JSON body, or `undefined` when it is not JSON or has none. */
export function pushTokenOf(body: string): string | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    return undefined;
  }
  const auth = isObject(payload) ? payload.auth : undefined;
  const token = isObject(auth) ? auth.token : undefined;
  return typeof token === 'string' ? token : undefined;
}

/**
 * Whether `given` is `expected`, in a time that does not tell how much of it was right: both are
 * hashed first, so even their lengths are compared in constant time.
 */
export function tokensMatch(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(sha256(given), sha256(expected));
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
