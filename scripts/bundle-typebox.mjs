#!/usr/bin/env node
// After `tsc -b`: replaces core's `#typebox` module (core/dist/vendor/typebox.js, a re-export of the typebox
// package) with a single-file bundle of it. Node loads the typebox package as ~680 small ES modules, which was
// most of the service's start-up time and a quarter of its resident memory; one file loads in a fraction of both.
// Without this step the re-export works the same, only slower. Skips a module that is already bundled.
import { readFile, rename, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const MODULE = fileURLToPath(new URL('../core/dist/vendor/typebox.js', import.meta.url));
const BANNER = '// Bundled by scripts/bundle-typebox.mjs from the typebox package.';

const source = await readFile(MODULE, 'utf8');
if (!source.startsWith(BANNER)) {
  const bundle = await rolldown({ input: MODULE, platform: 'node', logLevel: 'warn' });
  const temporary = `${MODULE}.bundling`;
  await bundle.write({ file: temporary, format: 'es', banner: BANNER, sourcemap: false });
  await bundle.close();
  await rename(temporary, MODULE);
  // tsc's source map described the re-export.
  await rm(`${MODULE}.map`, { force: true });
}
