// Reading a package folder's package.json: what discovery, the installer and the CLI need of it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface PackageJson {
  [field: string]: unknown;
  name?: string;
  version?: string;
  main?: string;
  exports?: unknown;
  keyframe?: unknown;
  engines?: unknown;
  peerDependencies?: unknown;
}

/** undefined: no package.json; a problem: one that is not a JSON object, said with its line and column. */
export async function readPackageJson(root: string): Promise<{ pkg: PackageJson } | { problem: string } | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(root, 'package.json'), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const pkg: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    if (typeof pkg === 'object' && pkg !== null && !Array.isArray(pkg)) return { pkg: pkg as PackageJson };
    return { problem: 'package.json does not hold a JSON object' };
  } catch (error) {
    return { problem: `package.json does not parse: ${jsonErrorWithLine(error, text)}` };
  }
}

/** Node's JSON.parse message names a character position; a person looks for a line and column. */
function jsonErrorWithLine(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position === undefined) return message;
  const before = text
    .replace(/^\uFEFF/, '')
    .slice(0, Number(position))
    .split('\n');
  return `${message} (line ${before.length}, column ${before.at(-1)!.length + 1})`;
}

export interface PackageIdentity {
  packageName?: string;
  version?: string;
}

/** The name and version a package.json gives, for telling the user about a package refused before discovery got them (either may be missing). */
export async function readPackageIdentity(packageRoot: string): Promise<PackageIdentity> {
  const read = await readPackageJson(packageRoot);
  const pkg = read && 'pkg' in read ? read.pkg : {};
  return {
    ...(typeof pkg.name === 'string' ? { packageName: pkg.name } : {}),
    ...(typeof pkg.version === 'string' ? { version: pkg.version } : {}),
  };
}
