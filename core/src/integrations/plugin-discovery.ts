// Finds integration packages by their manifest in the plugin folders, without importing any of their
// code; skips those that other users could change, and fingerprints those that need the user's approval.
import { existsSync } from 'node:fs';
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { appVersion } from '../support/app-version.js';
import { foreignWriteAccess } from '../support/write-access.js';
import { checkManifest, manifestWarnings, misspellingOf, type IntegrationManifest } from './manifest.js';
import { hashPackageContents } from './package-contents.js';
import { readPackageJson, type PackageJson } from './package-json.js';
import { checkCompatibility, type PackageRanges } from './plugin-compatibility.js';
import { corePackageRoot, type PluginFolder, type PluginSource } from './plugin-folders.js';

export interface DiscoveredPlugin {
  manifest: IntegrationManifest;
  packageName: string;
  version: string;
  packageRoot: string;
  /** The module to import: the package's `exports['.']` or `main`. */
  entry: string;
  source: PluginSource;
  /** SHA-256 of the package's files (package-contents.ts), for packages that need the user's approval. */
  contentHash?: string;
  /** What looks wrong without stopping it (unknown manifest fields, no engines.keyframe range), logged at discovery. */
  warnings: string[];
}

export interface RefusedPlugin {
  packageRoot: string;
  /** The key it claimed, when its manifest got that far. */
  key?: string;
  reason: string;
  /** As DiscoveredPlugin's: often the cause of the refusal (a misspelt field that is then missing). */
  warnings: string[];
}

export interface Discovery {
  plugins: DiscoveredPlugin[];
  refused: RefusedPlugin[];
}

/**
 * Scans `searchFolders` in order; the first package to claim a key wins, later ones are refused, and so
 * are packages whose declared Keyframe range excludes `hostVersion`.
 */
export async function discoverPlugins(searchFolders: readonly PluginFolder[], hostVersion: string = appVersion()): Promise<Discovery> {
  const discovery: Discovery = { plugins: [], refused: [] };
  const seenRoots = new Set<string>();
  for (const folder of searchFolders) {
    for (const candidate of await packageFolders(folder.path)) {
      const root = await realpath(candidate).catch(() => candidate);
      // npm workspaces link `node_modules/@scope/x` to `plugins/x`: one package, seen twice.
      if (seenRoots.has(root)) continue;
      seenRoots.add(root);
      const inspected = await inspectPackage(root, folder.source);
      if (!inspected) continue;
      const compatible = 'reason' in inspected ? inspected : await checkHostVersion(inspected, hostVersion);
      const found = 'reason' in compatible ? compatible : await checkTrust(compatible, candidate, folder.path);
      if ('reason' in found) {
        discovery.refused.push(found);
        continue;
      }
      const owner = discovery.plugins.find((plugin) => plugin.manifest.integration.key === found.manifest.integration.key);
      if (owner) {
        discovery.refused.push({
          packageRoot: root,
          key: found.manifest.integration.key,
          reason: `duplicate key ${found.manifest.integration.key}: already provided by ${owner.packageName} (${owner.packageRoot})`,
          warnings: found.warnings,
        });
        continue;
      }
      discovery.plugins.push(found);
    }
  }
  return discovery;
}

/** Package folders directly in `folder`, and in its `@scope` folders. */
async function packageFolders(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const folders: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    const full = path.join(folder, entry.name);
    if (entry.name.startsWith('@')) folders.push(...(await readdir(full).catch(() => [])).map((name) => path.join(full, name)));
    else if (!entry.name.startsWith('.')) folders.push(full);
  }
  return folders;
}

/**
 * Refuses a package that users other than this one could change: any folder on the way from the
 * package to the folder it was found in, the package's own folder, its package.json and its entry with
 * the folders between (every file, for packages that are fingerprinted). Fingerprints packages from the
 * user plugins folder.
 */
export async function checkTrust(plugin: DiscoveredPlugin, foundAt: string, scanned: string): Promise<DiscoveredPlugin | RefusedPlugin> {
  const refuse = (reason: string): RefusedPlugin => ({
    packageRoot: plugin.packageRoot,
    key: plugin.manifest.integration.key,
    reason,
    warnings: plugin.warnings,
  });
  const entry = path.relative(plugin.packageRoot, plugin.entry);
  if (entry.startsWith('..') || path.isAbsolute(entry)) return refuse(`its entry module ${plugin.entry} lies outside the package`);
  const writable =
    (await foreignWriteAccess(foundAt, scanned)) ??
    (await foreignWriteAccess(path.join(plugin.packageRoot, 'package.json'), plugin.packageRoot)) ??
    (await foreignWriteAccess(plugin.entry, plugin.packageRoot));
  if (writable) return refuse(`others can change it: ${writable}`);
  if (plugin.source !== 'user') return plugin;
  const contents = await hashPackageContents(plugin.packageRoot);
  if ('problem' in contents) return refuse(contents.problem);
  return { ...plugin, contentHash: contents.hash };
}

/** The package's `engines.keyframe` and `@keyframe/core` peer ranges against this host (plugin-compatibility.ts). */
export async function checkHostVersion(plugin: DiscoveredPlugin, hostVersion: string): Promise<DiscoveredPlugin | RefusedPlugin> {
  const read = await readPackageJson(plugin.packageRoot);
  const ranges: PackageRanges = read && 'pkg' in read ? read.pkg : {};
  const compatibility = checkCompatibility(ranges, hostVersion);
  if ('problem' in compatibility) {
    return {
      packageRoot: plugin.packageRoot,
      key: plugin.manifest.integration.key,
      reason: compatibility.problem,
      warnings: plugin.warnings,
    };
  }
  return { ...plugin, warnings: [...plugin.warnings, ...compatibility.warnings] };
}

export interface InspectOptions {
  /**
   * A plugin's own development folder (`keyframe plugin check`): its `node_modules/@keyframe/core` is the
   * copy it builds and tests against, which `npm pack` leaves out, not a copy it would bundle.
   */
  developmentFolder?: boolean;
}

/**
 * undefined: not an integration package at all; otherwise the plugin or why it is refused. In the folders
 * where people put plugins by hand (not the install's, with its hundreds of dependencies), a package.json
 * that does not parse, or a misspelt `keyframe` block, is refused with what is wrong rather than skipped.
 */
export async function inspectPackage(
  root: string,
  source: PluginSource = 'environment',
  options: InspectOptions = {},
): Promise<DiscoveredPlugin | RefusedPlugin | undefined> {
  const byHand = source !== 'install';
  const read = await readPackageJson(root);
  if (read === undefined) return undefined;
  if ('problem' in read) return byHand ? { packageRoot: root, reason: read.problem, warnings: [] } : undefined;
  const pkg = read.pkg;
  if (pkg.name === '@keyframe/core') return undefined;
  if (pkg.keyframe === undefined) {
    const misspelt = byHand ? Object.keys(pkg).find((field) => misspellingOf(field, [MANIFEST_FIELD]) !== undefined) : undefined;
    if (misspelt === undefined) return undefined;
    const reason = `package.json has no "${MANIFEST_FIELD}" block but a "${misspelt}" block: did you mean \`${MANIFEST_FIELD}\`?`;
    return { packageRoot: root, key: claimedKey(pkg[misspelt]), reason, warnings: [] };
  }
  const warnings = manifestWarnings(pkg.keyframe);
  const check = checkManifest(pkg.keyframe);
  if ('problem' in check) return { packageRoot: root, key: claimedKey(pkg.keyframe), reason: check.problem, warnings };
  const key = check.manifest.integration.key;
  // A second copy of core would give the plugin its own DI container and tokens: it could never work.
  // The copy a development folder installs is no second copy when it is the core running (a tape replay).
  const ownCore = path.join(root, 'node_modules', '@keyframe', 'core');
  if (!options.developmentFolder && existsSync(ownCore) && (await realpath(ownCore)) !== (await realpath(corePackageRoot()))) {
    return {
      packageRoot: root,
      key,
      reason: 'the package bundles its own copy of @keyframe/core: declare it as a peer dependency instead',
      warnings,
    };
  }
  const entry = entryOf(pkg);
  if (!entry) return { packageRoot: root, key, reason: 'package.json names no entry module (exports["."] or main)', warnings };
  return {
    manifest: check.manifest,
    packageName: pkg.name ?? path.basename(root),
    version: pkg.version ?? '',
    packageRoot: root,
    entry: path.resolve(root, entry),
    source,
    warnings,
  };
}

const MANIFEST_FIELD = 'keyframe';

/** undefined: there is no package.json (not a package); a problem: it does not parse as a JSON object. */
function entryOf(pkg: PackageJson): string | undefined {
  const root =
    typeof pkg.exports === 'object' && pkg.exports !== null && '.' in pkg.exports
      ? (pkg.exports as Record<string, unknown>)['.']
      : pkg.exports;
  if (typeof root === 'string') return root;
  if (typeof root === 'object' && root !== null) {
    const conditions = root as Record<string, unknown>;
    for (const condition of ['import', 'default']) if (typeof conditions[condition] === 'string') return conditions[condition];
  }
  return pkg.main;
}

function claimedKey(block: unknown): string | undefined {
  const key = (block as { integration?: { key?: unknown } } | undefined)?.integration?.key;
  return typeof key === 'string' ? key : undefined;
}
