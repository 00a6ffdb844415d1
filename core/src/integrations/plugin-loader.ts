// Imports an integration package's entry, checks that its default export can be constructed, and reads the settings it declares.
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IntegrationSettingsSchema } from '../protocol/index.js';
import type { GameIntegration } from '../sdk/game-integration.js';
import { readSettingsSchema } from '../settings/integration-settings-schema.js';

export type IntegrationClass = new (...args: never[]) => GameIntegration;

/** How many of a package's own modules are checked to find the one with a syntax error. */
const MAX_CHECKED_MODULES = 50;

export async function loadIntegrationClass(entry: string, packageRoot?: string): Promise<IntegrationClass> {
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(entry).href)) as { default?: unknown };
  } catch (error) {
    if (error instanceof SyntaxError) await addSyntaxErrorLocation(error, entry, packageRoot);
    throw error;
  }
  const candidate = module.default;
  if (typeof candidate !== 'function') throw new Error(`${entry} has no default export class implementing GameIntegration`);
  const prototype = (candidate as { prototype?: Record<string, unknown> }).prototype;
  const missing = ['activate', 'deactivate'].filter((hook) => typeof prototype?.[hook] !== 'function');
  if (missing.length > 0) throw new Error(`the default export of ${entry} lacks ${missing.join(' and ')}()`);
  return candidate as IntegrationClass;
}

/** The settings the class declares as its static `settings` (undefined: none); throws when the settings page could not render them. */
export function declaredSettingsSchema(integrationClass: IntegrationClass): IntegrationSettingsSchema | undefined {
  return readSettingsSchema((integrationClass as { settings?: unknown }).settings);
}

/**
 * An ES module's syntax error does not say where it is (Node prints the place only when it is uncaught):
 * `node --check`, which parses without running anything, finds the module of the package that has it,
 * and its `file:line` heads the stack as Node writes it for CommonJS.
 */
async function addSyntaxErrorLocation(error: SyntaxError, entry: string, packageRoot: string | undefined): Promise<void> {
  const modules = [entry, ...(packageRoot ? (await ownModules(packageRoot)).filter((file) => file !== entry) : [])];
  for (const file of modules.slice(0, MAX_CHECKED_MODULES)) {
    const line = await syntaxErrorLineIn(file);
    if (line === undefined) continue;
    // A file URL, as in the frames of ES modules: a path may hold spaces.
    error.stack = `${pathToFileURL(file).href}:${line}\n${error.stack ?? ''}`;
    return;
  }
}

/** The line of the syntax error `node --check` finds in `file` (it writes `<file>:<line>` first), if any. */
function syntaxErrorLineIn(file: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--check', file], { timeout: 10_000 }, (failed, _stdout, stderr) => {
      const line = failed ? /^.+:(\d+)\s*$/m.exec(stderr)?.[1] : undefined;
      resolve(line === undefined ? undefined : Number(line));
    });
  });
}

/** The package's JavaScript modules, its node_modules aside. */
async function ownModules(packageRoot: string): Promise<string[]> {
  const entries = await readdir(packageRoot, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && /\.(m?js|cjs)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !path.relative(packageRoot, file).split(path.sep).includes('node_modules'))
    .sort();
}
