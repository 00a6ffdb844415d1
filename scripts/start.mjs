#!/usr/bin/env node
// `npm start`: builds what is older than its sources (all of it on a fresh clone, nothing on a built tree;
// scripts/build-status.mjs decides), then runs the service in this same process with the arguments given
// (`npm start -- --port 0`), so Ctrl+C reaches the service's own handler and it stops cleanly.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { outdatedParts, SERVICE_BUNDLE, TYPESCRIPT, UI } from './build-status.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Each part's build, the same commands as `npm run build`. */
const BUILDS = {
  [TYPESCRIPT]: [
    [process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-b']],
    [process.execPath, [path.join(root, 'scripts', 'bundle-typebox.mjs')]],
    [process.execPath, [path.join(root, 'scripts', 'bundle-service.mjs')]],
  ],
  [UI]: [[npm, ['run', 'build', '-w', 'ui', '--silent']]],
};

for (const { part, reason } of outdatedParts(root)) {
  console.log(`Building ${part} (${reason})…`);
  for (const [command, args] of BUILDS[part]) {
    const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' && command === npm });
    if (result.status !== 0) {
      console.error(`keyframe: building ${part} failed; the service was not started`);
      process.exit(result.status ?? 1);
    }
  }
}

await import(pathToFileURL(path.join(root, SERVICE_BUNDLE)).href);
