// Errors as plain data for a log line: their own properties are not enumerable, so copying or
// JSON.stringify would leave `{}`.

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  code?: string | number;
  cause?: unknown;
}

/** How many causes deep a chain is followed; a cycle or a very long chain ends there. */
const MAX_CAUSES = 5;

export function serializeError(error: Error, causes = 0): SerializedError {
  const serialized: SerializedError = { name: error.name, message: error.message };
  if (error.stack !== undefined) serialized.stack = error.stack;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string' || typeof code === 'number') serialized.code = code;
  if (error.cause !== undefined && causes < MAX_CAUSES) {
    serialized.cause = error.cause instanceof Error ? serializeError(error.cause, causes + 1) : error.cause;
  }
  return serialized;
}
