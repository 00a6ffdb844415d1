#!/usr/bin/env node
// After `tsc -b` (and scripts/bundle-typebox.mjs): bundles the service's entry, core/dist/main.js, with the
// modules it imports into core/dist/bundle/keyframe.mjs, the file `npm start`, the `keyframe` command and the
// test kit run. Node loads ~250 small ES modules more slowly than one file (most of the service's start-up).
// Kept outside the bundle, loaded from their own files:
// - the SDK's modules (what `@keyframe/core` imports) and tsyringe and reflect-metadata: plugins import them
//   at run time and must share their instances (DI tokens, the decorators' metadata) with the service;
// - the other packages of node_modules (native binaries, lazily imported ones such as tesseract.js)
//   except the few the service imports at start-up (BUNDLED_PACKAGES);
// - modules a path names at run time (the module resolve hook of integrations/shared-modules.ts).
// The bundle lies two folders below core, as every dist module that finds a file from its own URL does.
// Its source map leads to the TypeScript sources (through tsc's maps). tsc's own output stays as it was:
// the tests import it, and the bundle is only a faster way to load the same code.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const DIST = fileURLToPath(new URL('../core/dist/', import.meta.url));
const SERVICE_BUNDLE = path.join(DIST, 'bundle', 'keyframe.mjs');
/** Packages the service imports before its first answer, each many small modules: bundled. */
const BUNDLED_PACKAGES = ['ws', 'semver', 'chokidar', 'readdirp'];
const isBare = (specifier) => !specifier.startsWith('.') && !path.isAbsolute(specifier);
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The absolute files of the SDK entry's module graph. */
async function sdkModules() {
  const bundle = await rolldown({ input: path.join(DIST, 'index.js'), platform: 'node', external: isBare, logLevel: 'silent' });
  const { output } = await bundle.generate({ format: 'es' });
  await bundle.close();
  return new Set(output.flatMap((chunk) => chunk.moduleIds ?? []).filter((id) => id.startsWith(DIST)));
}

/** Rolldown plugin: keeps the SDK's modules external (as paths relative to the bundle) and reads tsc's source maps. */
function serviceModules(sdk) {
  return {
    name: 'keyframe-service-modules',
    async resolveId(specifier, importer) {
      // `#typebox` too: one module already, and the SDK's.
      if (isBare(specifier)) return BUNDLED_PACKAGES.includes(packageOf(specifier)) ? null : { id: specifier, external: true };
      if (!importer) return null;
      const file = path.resolve(path.dirname(importer), specifier);
      if (!sdk.has(file)) return null;
      return { id: path.relative(path.dirname(SERVICE_BUNDLE), file).split(path.sep).join('/'), external: true };
    },
    async load(id) {
      if (!id.startsWith(DIST) || !id.endsWith('.js')) return null;
      const code = await readFile(id, 'utf8');
      const map = await readFile(`${id}.map`, 'utf8').catch(() => undefined);
      return { code: code.replace(/\n\/\/# sourceMappingURL=.*$/, ''), map };
    },
  };
}

const bundle = await rolldown({
  input: path.join(DIST, 'main.js'),
  platform: 'node',
  plugins: [serviceModules(await sdkModules())],
  logLevel: 'warn',
});
await bundle.write({ file: SERVICE_BUNDLE, format: 'es', sourcemap: true });
await bundle.close();
