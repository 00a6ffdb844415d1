import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dependencyClosure, importSpecifiers, packagesImportedBy } from './runtime-packages.js';

describe('packaging: the node_modules a release ships', () => {
  let tree: string;
  const write = async (file: string, text: string) => {
    await mkdir(path.dirname(path.join(tree, file)), { recursive: true });
    await writeFile(path.join(tree, file), text);
  };
  const manifest = (name: string, fields: object = {}) => JSON.stringify({ name, version: '1.0.0', ...fields });
  beforeEach(async () => (tree = await mkdtemp(path.join(os.tmpdir(), 'keyframe-packaging-'))));
  afterEach(() => rm(tree, { recursive: true, force: true }));

  it('reads static, multi-line and dynamic imports, and not the word import inside strings', () => {
    const code = [
      "import 'reflect-metadata';",
      'import {',
      '  a,',
      '  b',
      "} from 'tsyringe';",
      "export * from './sdk.js';",
      'const text = Const("export") + "import x from \'nope\'";',
      "const later = () => import('tesseract.js');",
    ].join('\n');
    expect(importSpecifiers(code)).to.deep.equal(['reflect-metadata', 'tsyringe', './sdk.js', 'tesseract.js']);
  });

  it('follows relative imports, # imports and workspace packages through their exports, and lists the rest', async () => {
    await write(
      'core/package.json',
      manifest('@k/core', { exports: { './host': { default: './dist/host.js' } }, imports: { '#vendor': './dist/vendor.js' } }),
    );
    await write('core/dist/host.js', "import './inner.js';\nimport '#vendor';");
    await write('core/dist/inner.js', "import 'got';");
    await write('core/dist/vendor.js', "import 'node:fs';\nimport 'typebox-free';");
    await write('app/main.js', "import { host } from '@k/core/host';\nimport 'dbus-next/lib/thing.js';");
    const workspace = new Map([['@k/core', path.join(tree, 'core')]]);
    expect([...packagesImportedBy([path.join(tree, 'app', 'main.js')], workspace)].sort()).to.deep.equal([
      'dbus-next',
      'got',
      'typebox-free',
    ]);
  });

  it('adds dependencies as npm installed them (nested copies too), skips missing optional ones, refuses a missing required one', async () => {
    await write('node_modules/a/package.json', manifest('a', { dependencies: { b: '1' }, optionalDependencies: { 'only-on-mac': '1' } }));
    await write('node_modules/a/node_modules/b/package.json', manifest('b', { dependencies: { c: '1' } }));
    await write('node_modules/c/package.json', manifest('c'));
    await write('node_modules/unused/package.json', manifest('unused'));
    expect(dependencyClosure(['a'], tree, ['not-installed']).map((folder) => path.relative(tree, folder))).to.deep.equal([
      path.join('node_modules', 'a'),
      path.join('node_modules', 'a', 'node_modules', 'b'),
      path.join('node_modules', 'c'),
    ]);
    expect(() => dependencyClosure(['missing'], tree)).to.throw('missing is needed at run time but is not installed');
  });
});
