// Which Keyframe versions a plugin package says it works with: the semver range `engines.keyframe` in its
// package.json, and its peer range for `@keyframe/core`, both checked against this host's version.
import semver from 'semver';

export interface PackageRanges {
  engines?: unknown;
  peerDependencies?: unknown;
}

export type Compatibility = { problem: string } | { warnings: string[] };

/** A refusal when a declared range excludes `hostVersion`; warnings when there is no range to check. */
export function checkCompatibility(pkg: PackageRanges, hostVersion: string): Compatibility {
  const engine = stringField(pkg.engines, 'keyframe');
  const peer = stringField(pkg.peerDependencies, '@keyframe/core');
  const warnings: string[] = [];
  if (engine === undefined) {
    warnings.push(`package.json declares no engines.keyframe range: it is loaded, but nothing says it works with Keyframe ${hostVersion}`);
  } else {
    const problem = outside(engine, hostVersion, 'Keyframe', 'engines.keyframe');
    if (problem) return { problem };
  }
  if (peer !== undefined) {
    // A peer range npm cannot read (`file:…`, `workspace:*`) says nothing about versions: not a refusal.
    if (semver.validRange(peer) === null) warnings.push(`the @keyframe/core peer range "${peer}" is not a semver range: it is not checked`);
    else {
      const problem = outside(peer, hostVersion, '@keyframe/core', 'the @keyframe/core peer range');
      if (problem) return { problem };
    }
  }
  return { warnings };
}

function outside(range: string, hostVersion: string, what: string, field: string): string | undefined {
  if (semver.validRange(range) === null) return `${field} "${range}" is not a semver range`;
  // Pre-releases of the host count: a plugin for ^0.2.0 runs on 0.2.1-beta.1.
  if (semver.satisfies(hostVersion, range, { includePrerelease: true })) return undefined;
  return `needs ${what} ${range}; this is ${hostVersion}`;
}

function stringField(record: unknown, name: string): string | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const value = (record as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}
