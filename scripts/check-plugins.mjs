#!/usr/bin/env node
// Checks every integration package under plugins/: a valid manifest, an engines.keyframe range that
// holds this core's version, @keyframe/core as a peer dependency only, no install scripts, no imports of
// core internals, and tests on the published kit rather than the private @keyframe/test. Exit 1 with the problems.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pluginsFolder = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, 'plugins');
const { inspectPackage, checkCompatibility } = await import(path.join(root, 'core', 'dist', 'tapes.js'));
const coreVersion = JSON.parse(await readFile(path.join(root, 'core', 'package.json'), 'utf8')).version;

const LIFECYCLE_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish'];
const ALLOWED_CORE_IMPORTS = new Set(['@keyframe/core', '@keyframe/core/protocol']);

async function sourceFiles(folder) {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile() && /\.(ts|tsx|js|mjs)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}

async function problemsOf(packageRoot) {
  const problems = [];
  const pkg = JSON.parse(await readFile(path.join(packageRoot, 'package.json'), 'utf8'));
  const inspected = await inspectPackage(packageRoot);
  if (!inspected) problems.push('no keyframe manifest in package.json');
  else if ('reason' in inspected) problems.push(inspected.reason);
  if (typeof pkg.engines?.keyframe !== 'string')
    problems.push('engines.keyframe must name the Keyframe versions it supports (e.g. "^0.1.0")');
  const compatibility = checkCompatibility(pkg, coreVersion);
  if ('problem' in compatibility) problems.push(compatibility.problem);
  if (!pkg.peerDependencies?.['@keyframe/core']) problems.push('@keyframe/core must be a peer dependency');
  if (pkg.dependencies?.['@keyframe/core']) problems.push('@keyframe/core must not be a dependency (a second copy of core)');
  // @keyframe/test is this repository's private end-to-end tooling: a plugin's tests use the published kit.
  if (pkg.dependencies?.['@keyframe/test'] || pkg.devDependencies?.['@keyframe/test']) {
    problems.push('@keyframe/test is private: depend on @keyframe/integration-testkit instead');
  }
  for (const script of LIFECYCLE_SCRIPTS) if (pkg.scripts?.[script]) problems.push(`lifecycle script "${script}" is not allowed`);
  for (const file of await sourceFiles(path.join(packageRoot, 'src'))) {
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)) {
      const specifier = match[1];
      const internal = (specifier.startsWith('@keyframe/core') && !ALLOWED_CORE_IMPORTS.has(specifier))
        || (specifier.startsWith('.') && path.resolve(path.dirname(file), specifier).startsWith(path.join(root, 'core') + path.sep));
      if (internal) problems.push(`${path.relative(packageRoot, file)} imports core internals: ${specifier}`);
      if (specifier === '@keyframe/test') problems.push(`${path.relative(packageRoot, file)} imports @keyframe/test: use @keyframe/integration-testkit`);
    }
  }
  return problems;
}

let failed = false;
for (const entry of await readdir(pluginsFolder, { withFileTypes: true })) {
  if (!entry.isDirectory()) continue;
  const problems = await problemsOf(path.join(pluginsFolder, entry.name));
  if (problems.length === 0) continue;
  failed = true;
  console.error(`plugins/${entry.name}:\n  ${problems.join('\n  ')}`);
}
if (failed) process.exit(1);
console.log('Integration packages are well-formed.');
