// Errors as plain data for a log line: their own properties (message, stack, cause) are not enumerable,
// so copying or JSON.stringify would leave `{}`.
import { types } from 'node:util';

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  cause?: unknown;
  /** An AggregateError's errors. */
  errors?: unknown[];
  /** Own enumerable properties, e.g. `code`, `errno`, `path`. */
  [property: string]: unknown;
}

/** How many errors deep a chain (causes, an AggregateError's errors) is followed; a cycle or a very long chain ends there. */
const MAX_NESTED_ERRORS = 5;
/** How many of an AggregateError's errors are written. */
const MAX_AGGREGATED = 10;

/** An Error, also one made in another realm (a vm context), where `instanceof Error` is false. */
export function isError(value: unknown): value is Error {
  return value instanceof Error || types.isNativeError(value);
}

/** name, message, stack, own enumerable properties, cause and aggregated errors (themselves serialized, to a bounded depth). */
export function serializeError(error: Error, nesting = 0): SerializedError {
  const serialized: SerializedError = { name: error.name, message: error.message };
  if (error.stack !== undefined) serialized.stack = error.stack;
  const nested = (value: unknown) =>
    isError(value) ? (nesting < MAX_NESTED_ERRORS ? serializeError(value, nesting + 1) : String(value)) : value;
  for (const [property, value] of Object.entries(error)) {
    if (!(property in serialized)) serialized[property] = value;
  }
  if (error.cause !== undefined) serialized.cause = nested(error.cause);
  const { errors } = error as { errors?: unknown };
  if (Array.isArray(errors)) serialized.errors = errors.slice(0, MAX_AGGREGATED).map(nested);
  return serialized;
}
