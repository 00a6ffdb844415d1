// A small JSON file the service keeps for itself (an answer of the user's, values to restore): read, parsed and
// checked in one step. A missing file is normal; one that cannot be read, parsed or checked is reported.
import { readFile } from 'node:fs/promises';

export interface UnreadableFile {
  /** Why it could not be read or parsed. */
  error?: unknown;
  /** Why its content was refused. */
  problems?: string[];
}

/**
 * The value in `file` when it parses and `problemsOf` finds nothing wrong with it (so it is a `T`); undefined
 * when the file is missing, or unreadable (`onUnreadable` is told why).
 */
export async function readCheckedJson<T>(
  file: string,
  problemsOf: (value: unknown) => string[],
  onUnreadable: (why: UnreadableFile) => void,
): Promise<T | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onUnreadable({ error });
    return undefined;
  }
  const problems = problemsOf(value);
  if (problems.length === 0) return value as T;
  onUnreadable({ problems });
  return undefined;
}
