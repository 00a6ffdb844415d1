// The name and version a package folder's package.json gives, for telling the user about a package that
// was refused before discovery got them (a best effort: either may be missing).
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface PackageIdentity {
  packageName?: string;
  version?: string;
}

export async function readPackageIdentity(packageRoot: string): Promise<PackageIdentity> {
  try {
    const pkg = JSON.parse(await readFile(path.join(packageRoot, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    return {
      ...(typeof pkg.name === 'string' ? { packageName: pkg.name } : {}),
      ...(typeof pkg.version === 'string' ? { version: pkg.version } : {}),
    };
  } catch {
    return {};
  }
}
