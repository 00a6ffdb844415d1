// What a plugin author needs from a failure: the message, and where in their own package it happened
// (`boom (at dist/racing-game-integration.js:42)`), not where the host caught it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isError } from '../support/errors.js';

/**
 * Where a stack line points: `at fn (<file>:42:7)`, `at <file>:42:7`, or `<file>:3` heading a syntax error;
 * `<file>` a file URL (ES modules) or a path (CommonJS), either of which may hold spaces.
 */
const STACK_LOCATIONS = [/\((.+):(\d+):\d+\)$/, /^at (.+):(\d+):\d+$/, /^(file:\/\/.+):(\d+)$/];

/**
 * The error's message, followed by the first place its stack names inside `packageRoot` (not its own
 * node_modules); the package's own paths in the message (`imported from …/dist/index.js`) are made relative.
 */
export function describePluginFailure(error: unknown, packageRoot: string | undefined): string {
  const message = isError(error) ? error.message : String(error);
  if (packageRoot === undefined) return message;
  const relativeMessage = message.replaceAll(`${path.resolve(packageRoot)}${path.sep}`, '');
  const location = locationInPackage(error, packageRoot);
  return location === undefined ? relativeMessage : `${relativeMessage} (at ${location})`;
}

/** `dist/index.js:42`, relative to the package, with `/` between folders; undefined when no frame is in the package. */
export function locationInPackage(error: unknown, packageRoot: string): string | undefined {
  const stack = isError(error) ? error.stack : undefined;
  if (stack === undefined) return undefined;
  for (const line of stack.split('\n')) {
    const found = STACK_LOCATIONS.map((pattern) => pattern.exec(line.trim())).find((match) => match !== null);
    if (!found) continue;
    const file = found[1]!.startsWith('file:') ? fileURLToPath(found[1]!) : found[1]!;
    if (!path.isAbsolute(file)) continue; // node:internal/…, evalmachine.<anonymous>
    const relative = path.relative(packageRoot, file);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) continue;
    if (relative.split(path.sep).includes('node_modules')) continue;
    return `${relative.split(path.sep).join('/')}:${found[2]}`;
  }
  return undefined;
}
