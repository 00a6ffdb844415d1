#!/usr/bin/env node
// Checks the import arrows of core/src against the layer order in scripts/layers.json: nothing imports a
// higher layer, units of one layer import each other only where listed, and sdk/ stays a leaf; TypeBox comes
// through '#typebox'. Known violations are listed, file by file, in scripts/layer-exceptions.json; any other
// violation, or an exception that no longer happens, fails with exit 1. Test files (*.test.ts) are not checked.
//
//   node scripts/check-layers.mjs [--src core/src] [--layers scripts/layers.json]
//                                 [--exceptions scripts/layer-exceptions.json] [--quiet] [--arrows]
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : path.resolve(process.argv[at + 1]);
}

const srcFolder = option('src', path.join(root, 'core', 'src'));
const layersFile = option('layers', path.join(root, 'scripts', 'layers.json'));
const exceptionsFile = option('exceptions', path.join(root, 'scripts', 'layer-exceptions.json'));
const quiet = process.argv.includes('--quiet');

const toPosix = (file) => file.split(path.sep).join('/');

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => toPosix(path.relative(folder, path.join(entry.parentPath, entry.name))))
    .sort();
}

// A relative specifier as TypeScript's NodeNext resolution reads it: './x.js' is './x.ts' (or .tsx), a folder is its index.
function resolveImport(fromFile, specifier) {
  const base = path.resolve(srcFolder, path.dirname(fromFile), specifier);
  const stem = base.replace(/\.(js|jsx|mjs)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  return found && toPosix(path.relative(srcFolder, found));
}

// Static imports, `import type`, `export … from` and `import('literal')`, as the compiler itself finds them.
function specifiersOf(file) {
  const text = readFileSync(path.join(srcFolder, file), 'utf8');
  return ts.preProcessFile(text, true, true).importedFiles.map((entry) => entry.fileName);
}

function importsOf(file) {
  return specifiersOf(file).filter((specifier) => specifier.startsWith('.'));
}

// The typebox package is ~680 modules; the service loads it bundled, as '#typebox' (core/src/vendor/typebox.ts).
const TYPEBOX_MODULE = 'vendor/typebox.ts';
function directTypeboxImports(file) {
  if (file === TYPEBOX_MODULE) return [];
  return specifiersOf(file)
    .filter((specifier) => specifier === 'typebox' || specifier.startsWith('typebox/'))
    .map((specifier) => `core/src/${file} imports '${specifier}': import TypeBox from '#typebox' (core/src/${TYPEBOX_MODULE}), the bundled copy`);
}

function unitOf(file) {
  const slash = file.indexOf('/');
  return slash === -1 ? file : file.slice(0, slash + 1);
}

function loadRules() {
  const { layers, peers = [], only = [] } = JSON.parse(readFileSync(layersFile, 'utf8'));
  const layerOf = new Map();
  layers.forEach((layer, index) => layer.units.forEach((unit) => layerOf.set(unit, { index, name: layer.name })));
  const allowedPeers = new Set(peers.map((peer) => `${peer.from} -> ${peer.to}`));
  const onlyOf = new Map(only.map((rule) => [rule.unit, rule]));
  return { layerOf, allowedPeers, onlyOf };
}

// The rule an arrow between two units breaks, or undefined when it is allowed.
function brokenRule(rules, fromUnit, toUnit) {
  if (fromUnit === toUnit) return undefined;
  const from = rules.layerOf.get(fromUnit);
  const to = rules.layerOf.get(toUnit);
  if (!from) return `${fromUnit} is in no layer of scripts/layers.json: add it to the table`;
  if (!to) return `${toUnit} is in no layer of scripts/layers.json: add it to the table`;
  const only = rules.onlyOf.get(fromUnit);
  if (only && !only.may.includes(toUnit)) return `${fromUnit} may import only ${only.may.join(', ')} (${only.reason})`;
  if (to.index < from.index) return `upward import: ${fromUnit} (${from.name}) must not import ${toUnit} (${to.name}, a higher layer)`;
  if (to.index === from.index && !rules.allowedPeers.has(`${fromUnit} -> ${toUnit}`)) {
    return `${fromUnit} and ${toUnit} are both in layer "${from.name}"; this arrow is not listed in its peers`;
  }
  return undefined;
}

const rules = loadRules();
const exceptions = JSON.parse(readFileSync(exceptionsFile, 'utf8')).exceptions ?? [];
const exceptionKey = (from, to) => `${from} -> ${to}`;
const excepted = new Map(exceptions.map((exception) => [exceptionKey(exception.from, exception.to), exception]));
const used = new Set();

const files = sourceFiles(srcFolder);
const units = new Set(files.map(unitOf));
const arrows = new Set();
const brokenArrows = new Set();
const upwardArrows = new Set();
const failures = [];
for (const file of files) {
  failures.push(...directTypeboxImports(file));
  for (const specifier of importsOf(file)) {
    const target = resolveImport(file, specifier);
    if (!target || target.startsWith('../')) continue;
    const fromUnit = unitOf(file);
    const toUnit = unitOf(target);
    if (fromUnit === toUnit) continue;
    arrows.add(`${fromUnit} -> ${toUnit}`);
    const rule = brokenRule(rules, fromUnit, toUnit);
    if (!rule) continue;
    brokenArrows.add(`${fromUnit} -> ${toUnit}`);
    if (rules.layerOf.get(toUnit)?.index < rules.layerOf.get(fromUnit)?.index) upwardArrows.add(`${fromUnit} -> ${toUnit}`);
    const key = exceptionKey(file, target);
    if (excepted.has(key)) used.add(key);
    else failures.push(`core/src/${file} imports '${specifier}' (${target}): ${rule}`);
  }
}
for (const key of excepted.keys()) {
  if (!used.has(key)) failures.push(`exception no longer needed, remove it from scripts/layer-exceptions.json: ${key}`);
}

if (process.argv.includes('--arrows')) for (const arrow of [...arrows].sort()) console.log(`arrow ${arrow}`);
if (!quiet) {
  console.log(`layers: ${units.size} folders and files, ${arrows.size} arrows, ${brokenArrows.size} against the layer order `
    + `(${upwardArrows.size} upward, ${brokenArrows.size - upwardArrows.size} other), `
    + `${used.size} file imports excepted in scripts/layer-exceptions.json`);
  for (const arrow of [...brokenArrows].sort()) console.log(`  against the order: ${arrow}`);
}
if (failures.length > 0) {
  console.error(`check-layers: ${failures.length} problem(s) (layer order in scripts/layers.json, see docs/architecture.md):`);
  for (const failure of failures) console.error(`  ${failure}`);
  process.exit(1);
}
