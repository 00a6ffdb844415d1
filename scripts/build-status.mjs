#!/usr/bin/env node
// Which parts of the built tree are older than their sources, from file times alone (a few ms on the whole
// tree), so `npm start` runs a build only when one is needed. The rule is tsc -b's own: a part is out of
// date when an output is missing or an input (a source file, a tsconfig) was modified after the part was
// last built; both builds then touch their outputs, even when nothing had to be compiled again. Whenever
// the tree does not look as expected, the answer is "out of date": the build tool then decides, and a
// needless build only costs time, never runs stale code.
//
//   node scripts/build-status.mjs [--root <folder>]   prints each out-of-date part and why, one a line
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The TypeScript projects of the root tsconfig.json (built by `tsc -b`). */
export const TYPESCRIPT = 'typescript';
/** The web UI (built by `npm run build -w ui`: a type check and a Vite bundle). */
export const UI = 'ui';

const TYPESCRIPT_SOURCE = /\.[cm]?tsx?$/;
const ANY_FILE = /./;
/** The UI's inputs besides ui/src; it imports the protocol's types from core. */
const UI_INPUTS = ['ui/src', 'ui/index.html', 'ui/vite.config.ts', 'ui/package.json', 'ui/tsconfig.json', 'core/src/protocol'];
const UI_OUTPUT = 'ui/dist/index.html';
/** The service's bundle (scripts/bundle-service.mjs), made from core's compiled modules: older than them after a `tsc -b` alone. */
export const SERVICE_BUNDLE = 'core/dist/bundle/keyframe.mjs';
const CORE_BUILD_INFO = 'core/tsconfig.tsbuildinfo';

function mtimeMs(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * The newest of `inputs` (files, and in folders every file whose name `wanted` matches), or undefined if
 * none exists. Folders' own times do not count: tsc -b does not touch its outputs when only a folder's
 * entries changed, and a file that matters is new or edited itself (a removed one changes its importers).
 */
function newest(inputs, wanted) {
  let found;
  const consider = (file) => {
    const time = statSync(file).mtimeMs;
    if (found === undefined || time > found.time) found = { file, time };
  };
  for (const input of inputs) {
    const stats = statSync(input, { throwIfNoEntry: false });
    if (!stats) continue;
    if (!stats.isDirectory()) consider(input);
    else {
      for (const entry of readdirSync(input, { withFileTypes: true, recursive: true })) {
        if (entry.isFile() && wanted.test(entry.name)) consider(path.join(entry.parentPath, entry.name));
      }
    }
  }
  return found;
}

/** Why the part built into `output` is out of date, or undefined when it is not. */
function outdatedReason(root, output, inputs, wanted) {
  const builtAt = mtimeMs(output);
  if (builtAt === undefined) return `${path.relative(root, output)} is missing`;
  const latest = newest(inputs, wanted);
  if (latest && latest.time > builtAt) return `${path.relative(root, latest.file)} changed after the last build`;
  return undefined;
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Why the TypeScript projects need `tsc -b` (and the service its bundle), or undefined when every one is up to date. */
function typescriptReason(root) {
  const rootConfig = path.join(root, 'tsconfig.json');
  try {
    for (const reference of readJson(rootConfig).references ?? []) {
      const folder = path.resolve(root, reference.path);
      const configFile = path.join(folder, 'tsconfig.json');
      const config = readJson(configFile);
      const options = config.compilerOptions ?? {};
      const outDir = options.outDir && path.resolve(folder, options.outDir);
      if (outDir && !existsSync(outDir)) return `${path.relative(root, outDir)} is missing`;
      const buildInfo = path.resolve(folder, options.tsBuildInfoFile ?? 'tsconfig.tsbuildinfo');
      // An include pattern counts from its folder: `src/**/*` looks at all of src.
      const included = (config.include ?? ['.']).map((pattern) => path.resolve(folder, pattern.split(/[*?]/)[0]));
      const configs = [rootConfig, configFile, ...(config.extends ? [path.resolve(folder, config.extends)] : [])];
      const reason = outdatedReason(root, buildInfo, [...configs, ...included], TYPESCRIPT_SOURCE);
      if (reason) return reason;
    }
  } catch (error) {
    return `the project list could not be read (${error.message})`;
  }
  return outdatedReason(root, path.join(root, SERVICE_BUNDLE), [path.join(root, CORE_BUILD_INFO)], ANY_FILE);
}

/** The parts of the tree at `root` that need building, in build order, each with why. */
export function outdatedParts(root) {
  const parts = [];
  const typescript = typescriptReason(root);
  if (typescript) parts.push({ part: TYPESCRIPT, reason: typescript });
  const ui = outdatedReason(
    root,
    path.join(root, UI_OUTPUT),
    UI_INPUTS.map((input) => path.join(root, input)),
    ANY_FILE,
  );
  if (ui) parts.push({ part: UI, reason: ui });
  return parts;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--root');
  const root = at === -1 ? fileURLToPath(new URL('..', import.meta.url)) : path.resolve(process.argv[at + 1]);
  for (const { part, reason } of outdatedParts(root)) console.log(`${part}: ${reason}`);
}
