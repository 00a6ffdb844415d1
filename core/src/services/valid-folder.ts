// A folder path a frontend sends (SetVideoLocation, SetCacheLocation, UpdateSettings folders): absolute,
// without `..` segments or NUL bytes.
import path from 'node:path';
import { CommandError } from '../commands/command-error.js';

/** An absolute path without `..` segments, normalised. Throws `CommandError`. */
export function validFolder(text: string): string {
  const shown = JSON.stringify(text);
  if (text.includes('\0')) throw new CommandError('InvalidParameters', `${shown} is not a usable folder path.`);
  if (!path.isAbsolute(text)) throw new CommandError('InvalidParameters', `${shown} is not an absolute path: send the full path of the folder.`);
  if (text.split(/[\\/]/).includes('..')) throw new CommandError('InvalidParameters', `${shown} contains "..": send the folder's path without it.`);
  return path.resolve(text);
}
