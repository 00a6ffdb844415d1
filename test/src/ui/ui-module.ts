// Loads one plain module of the UI's source in Node for a unit test: the UI is bundled by Vite, not built for
// Node, so the file is transpiled as it is (its type-only imports vanish) and imported from a temporary folder.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/** `source` is relative to ui/src, e.g. `toasts/command-failure-titles.ts`; it may import nothing at run time. */
export async function loadUiModule<T>(source: string): Promise<T> {
  const file = fileURLToPath(new URL(`../../../ui/src/${source}`, import.meta.url));
  const { outputText } = ts.transpileModule(await readFile(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  });
  const folder = await mkdtemp(path.join(tmpdir(), 'keyframe-ui-module-'));
  try {
    const transpiled = path.join(folder, `${path.basename(file, '.ts')}.mjs`);
    await writeFile(transpiled, outputText);
    return (await import(pathToFileURL(transpiled).href)) as T;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
