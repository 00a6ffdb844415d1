// The UI has no test runner of its own: a pure module of its sources (no DOM, no connection) is bundled by
// rolldown with the packages it imports into one temporary ES module, which Node imports. The module is
// the UI's own source, compiled the way Vite compiles it; only its types are the caller's to state.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';

const UI_SOURCES = fileURLToPath(new URL('../../../ui/src/', import.meta.url));

/** Imports `ui/src/<file>` (e.g. `dialogs/release-notes.ts`). */
export async function importUiModule<Module>(file: string): Promise<Module> {
  const folder = await mkdtemp(path.join(tmpdir(), 'keyframe-ui-module-'));
  try {
    const bundle = await rolldown({ input: path.join(UI_SOURCES, file), platform: 'node', logLevel: 'silent' });
    const output = path.join(folder, 'module.mjs');
    await bundle.write({ file: output, format: 'es' });
    await bundle.close();
    return (await import(pathToFileURL(output).href)) as Module;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
