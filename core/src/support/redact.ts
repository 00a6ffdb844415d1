// Secrets never reach a log: token values are replaced before anything is written.

const SECRET_KEYS = new Set(['accesstoken', 'refreshtoken', 'jwt', 'password', 'access_token', 'refresh_token', 'authorization']);
const REDACTED = '-REDACTED-';
const SECRET_IN_TEXT = /("(?:accessToken|refreshToken|jwt|password|access_token|refresh_token|authorization)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

/** A copy of `value` with the values of secret keys (any case, any depth) replaced. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) =>
    [key, SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : redact(item, depth + 1)]));
}

/** Raw text that may hold JSON (an incoming frame), with secret string values replaced. */
export function redactText(text: string): string {
  return text.replace(SECRET_IN_TEXT, `$1"${REDACTED}"`);
}
