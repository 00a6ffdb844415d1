// Which packages of node_modules an installation ships: the ones its code loads at run time, with their own
// production dependencies, and nothing else (no test tools, no build tools, no package the service bundle inlined).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface PackageJson {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  exports?: Record<string, string | { default?: string }>;
  imports?: Record<string, string | { default?: string }>;
}

export const readPackageJson = (folder: string): PackageJson =>
  JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as PackageJson;

/** The specifiers of a compiled ES module's static imports, re-exports and dynamic imports of a string literal. */
export function importSpecifiers(code: string): string[] {
  // Static ones start a line in compiled code; anything else that reads like one is inside a string or a comment.
  const pattern = /^[ \t]*(?:import|export)\s*(?:[\w*{}\s,$]*?\sfrom\s*)?["']([^"'\s]+)["']|\bimport\s*\(\s*["']([^"'\s]+)["']\s*\)/gm;
  return [...code.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? '').filter(Boolean);
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

const conditionTarget = (entry: string | { default?: string } | undefined) => (typeof entry === 'string' ? entry : entry?.default);

/**
 * The packages the modules reachable from `entries` import, following relative imports, a package's own `#` imports
 * and imports of the packages in `workspace` (name → folder: shipped as a whole, followed through their exports).
 * Built-in modules (`node:`) are left out.
 */
export function packagesImportedBy(entries: readonly string[], workspace: ReadonlyMap<string, string>): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const pending = [...entries];
  const owner = (file: string) => [...workspace.values()].find((folder) => file.startsWith(folder + path.sep));
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('node:')) continue;
      if (specifier.startsWith('.')) {
        pending.push(path.resolve(path.dirname(file), specifier));
        continue;
      }
      const folder = specifier.startsWith('#') ? owner(file) : workspace.get(packageName(specifier));
      if (!folder) {
        packages.add(packageName(specifier));
        continue;
      }
      const manifest = readPackageJson(folder);
      const target = specifier.startsWith('#')
        ? conditionTarget(manifest.imports?.[specifier])
        : conditionTarget(manifest.exports?.[`.${specifier.slice(packageName(specifier).length)}`]);
      if (!target) throw new Error(`${specifier} (imported by ${file}) names no module of ${manifest.name}`);
      pending.push(path.resolve(folder, target));
    }
  }
  return packages;
}

/** Node's lookup of a package from a folder: the nearest `node_modules/<name>` above it, up to `top`. */
export function resolvePackageFolder(name: string, from: string, top: string): string | undefined {
  for (let folder = from; ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (folder === top || folder === path.dirname(folder)) return undefined;
  }
}

/**
 * The folders of `roots` and of their dependencies, recursively, as installed under `top` (a missing optional
 * dependency is one npm skipped for this OS or CPU; a missing required one is an error).
 */
export function dependencyClosure(roots: Iterable<string>, top: string, optionalRoots: Iterable<string> = []): string[] {
  const folders = new Set<string>();
  const visit = (name: string, from: string, optional: boolean) => {
    const folder = resolvePackageFolder(name, from, top);
    if (!folder) {
      if (optional) return;
      throw new Error(`${name} is needed at run time but is not installed (run npm ci)`);
    }
    if (folders.has(folder)) return;
    folders.add(folder);
    const manifest = readPackageJson(folder);
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, folder, false);
    for (const dependency of Object.keys(manifest.optionalDependencies ?? {})) visit(dependency, folder, true);
  };
  for (const root of roots) visit(root, top, false);
  for (const root of optionalRoots) visit(root, top, true);
  return [...folders].sort();
}
