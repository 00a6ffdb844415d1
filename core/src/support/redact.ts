// Secrets never reach a log: token values are replaced before anything is written, and what is
// logged is bounded in depth and length (redacted first, cut after, so no part of a secret survives).
import { isError, serializeError } from './errors.js';

const SECRET_KEYS = new Set([
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'token',
  'jwt',
  'password',
  'secret',
  'clientsecret',
  'apikey',
  'authorization',
  'cookie',
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'api_key',
]);
const REDACTED = '-REDACTED-';
/** Deeper values are replaced by a marker: logging them must not recurse without bound. */
export const MAX_LOGGED_DEPTH = 12;
const TOO_DEEP = `[nested deeper than ${MAX_LOGGED_DEPTH} levels]`;
/**
 * A JSON key and the string value after it; the value may be cut off by the end of the text (a
 * truncated frame). The key is matched escaped as written and decoded before it is compared.
 */
const KEY_AND_STRING_VALUE = /"((?:[^"\\]|\\.)*)"(\s*:\s*)"(?:[^"\\]|\\.)*(?:"|\\?$)/g;

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase());
}

/**
 * A plain-data copy of `value` for a log line: values of secret keys (any case, any depth) replaced,
 * errors serialised with message and stack, anything deeper than MAX_LOGGED_DEPTH replaced by a marker.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_LOGGED_DEPTH) return TOO_DEEP;
  if (isError(value)) return redact(serializeError(value), depth);
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  // Dates, Buffers, URLs: what JSON would write for them, not their (often empty) own keys.
  const { toJSON } = value as { toJSON?: unknown };
  if (typeof toJSON === 'function') return redact(toJSON.call(value), depth + 1);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isSecretKey(key) ? REDACTED : redact(item, depth + 1)]));
}

/** Raw text that may hold JSON (an incoming frame, perhaps malformed or cut off), with secret string values replaced. */
export function redactText(text: string): string {
  return text.replace(KEY_AND_STRING_VALUE, (match, key: string, colon: string) =>
    isSecretKey(decodeJsonString(key)) ? `"${key}"${colon}"${REDACTED}"` : match,
  );
}

/**
 * At most `maxChars` of `value` as JSON (or of the text itself), redacted before it is cut. Text is
 * redacted in a window a few times the excerpt: scanning a whole megabyte frame could take quadratic
 * time, and a secret value the window cuts off is still redacted (see KEY_AND_STRING_VALUE).
 */
export function redactedExcerpt(value: unknown, maxChars: number): string {
  const text = typeof value === 'string' ? redactText(value.slice(0, 4 * maxChars)) : (JSON.stringify(redact(value)) ?? String(value));
  const fullLength = typeof value === 'string' ? value.length : text.length;
  return fullLength <= maxChars ? text : `${text.slice(0, maxChars)}… (${fullLength} characters in all)`;
}

function decodeJsonString(escaped: string): string {
  try {
    return JSON.parse(`"${escaped}"`) as string;
  } catch {
    return escaped;
  }
}
