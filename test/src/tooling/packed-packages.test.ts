// What a third party installs: @keyframe/core and @keyframe/integration-testkit as `npm pack` makes
// them. The built code without compiled tests, every entry a plugin imports present, and a kit that
// pulls in none of this repository's end-to-end tooling (browser driver, tus server).
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packedContents, type PackedWorkspace } from '../kit/packed-tarballs.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

interface Manifest {
  name: string;
  version: string;
  bin?: Record<string, string>;
  exports: Record<string, string | { types?: string; default: string }>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

interface LockEntry extends Omit<Manifest, 'name' | 'version' | 'exports' | 'bin'> {
  link?: boolean;
  resolved?: string;
}

const readJson = async <T>(file: string): Promise<T> => JSON.parse(await readFile(path.join(REPO, file), 'utf8')) as T;

/** The files an entry of `exports` points at, without the leading `./`. */
const exportTargets = (manifest: Manifest, entries: readonly string[]) =>
  entries.flatMap((entry) => {
    const target = manifest.exports[entry]!;
    return (typeof target === 'string' ? [target] : [target.types, target.default]).filter((file) => file !== undefined);
  });
const packagePath = (file: string) => file.replace(/^\.\//, '');

/** The names of every package installed for a workspace's dependencies, peers included, as package-lock.json resolves them. */
function dependencyTree(lock: Record<string, LockEntry>, location: string): Set<string> {
  const names = new Set<string>();
  const visited = new Set<string>();
  const visit = (from: string) => {
    const entry = lock[from]!;
    for (const name of Object.keys({ ...entry.dependencies, ...entry.peerDependencies, ...entry.optionalDependencies })) {
      // Node's lookup: the package's own node_modules, then each node_modules above it.
      const candidates: string[] = [];
      for (let folder = from; folder !== '.'; folder = path.posix.dirname(folder)) {
        if (!folder.endsWith('/node_modules')) candidates.push(`${folder}/node_modules/${name}`);
      }
      candidates.push(`node_modules/${name}`);
      const found = candidates.find((candidate) => lock[candidate]);
      if (found === undefined) continue; // an optional dependency not installed on this platform
      names.add(name);
      const installed = lock[found]!.link ? lock[found]!.resolved! : found;
      if (visited.has(installed)) continue;
      visited.add(installed);
      visit(installed);
    }
  };
  visit(location);
  return names;
}

describe('the packages a third party installs (npm pack)', function () {
  this.timeout(60_000);
  let core: PackedWorkspace;
  let kit: PackedWorkspace;
  let coreManifest: Manifest;
  let kitManifest: Manifest;

  before(async () => {
    [core, kit] = await packedContents(['core', 'testkit']);
    coreManifest = await readJson<Manifest>('core/package.json');
    kitManifest = await readJson<Manifest>('testkit/package.json');
  });

  it('@keyframe/core holds the built service and SDK, its README and game catalog, and no compiled tests', () => {
    expect(core.files.filter((file) => /\.test\./.test(file))).to.deep.equal([]);
    expect(core.files.filter((file) => file.startsWith('dist/testing/') && !file.startsWith('dist/testing/game-push.'))).to.deep.equal([]);
    const entries = exportTargets(coreManifest, ['.', './protocol', './tapes', './game-push']).map(packagePath);
    const bins = Object.values(coreManifest.bin ?? {}).map(packagePath);
    expect(core.files).to.include.members([...entries, ...bins, 'README.md', 'package.json', 'data/game-catalog.json']);
    expect(core.files.filter((file) => !file.startsWith('dist/'))).to.have.members(['README.md', 'package.json', 'data/game-catalog.json']);
  });

  it('@keyframe/integration-testkit holds its built entry and README, and no compiled tests', () => {
    expect(kit.files.filter((file) => /\.test\./.test(file))).to.deep.equal([]);
    expect(kit.files).to.include.members([...exportTargets(kitManifest, ['.']).map(packagePath), 'README.md', 'package.json']);
  });

  it('the kit declares core, mocha and tsyringe as peers at the ranges a third party installs, and depends on what it imports', async () => {
    expect(kitManifest.peerDependencies).to.deep.equal({
      '@keyframe/core': `^${coreManifest.version}`,
      mocha: '>=10',
      tsyringe: coreManifest.dependencies!.tsyringe,
    });
    const declared = new Set(Object.keys({ ...kitManifest.dependencies, ...kitManifest.peerDependencies }));
    const imported = new Set<string>();
    for (const file of kit.files.filter((name) => name.endsWith('.js'))) {
      const text = await readFile(path.join(REPO, 'testkit', file), 'utf8');
      for (const [, specifier] of text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"./][^'"]*)['"]/g)) {
        const name = specifier!.startsWith('@') ? specifier!.split('/').slice(0, 2).join('/') : specifier!.split('/')[0]!;
        if (!name.startsWith('node:') && !builtinModules.includes(name)) imported.add(name);
      }
    }
    expect(
      [...imported].filter((name) => !declared.has(name)),
      'imported but not declared',
    ).to.deep.equal([]);
    expect(
      Object.keys(kitManifest.dependencies ?? {}).filter((name) => !imported.has(name)),
      'declared but not imported',
    ).to.deep.equal([]);
  });

  it("nothing the kit installs, core included, is this repository's end-to-end tooling", async () => {
    const lock = (await readJson<{ packages: Record<string, LockEntry> }>('package-lock.json')).packages;
    const tree = dependencyTree(lock, 'testkit');
    expect(tree).to.include('ws').and.to.include('tsyringe');
    expect([...tree].filter((name) => name === 'playwright-core' || name.startsWith('@tus/') || name === '@keyframe/test')).to.deep.equal(
      [],
    );
  });
});
