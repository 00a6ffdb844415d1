import { expect } from 'chai';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { discoverPlugins, inspectPackage } from './plugin-discovery.js';
import { corePackageRoot } from './plugin-folders.js';

const MANIFEST = {
  apiVersion: 1,
  integration: {
    key: 'someGame',
    displayName: 'Some game',
    events: ['Kill'],
    games: [{ name: 'Some', executables: ['some.exe'] }],
    feeds: [],
  },
};

describe('plugin discovery', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'discovery-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function writePackage(root: string, main: string, engines: object = { keyframe: '>=0.1.0' }): Promise<void> {
    await mkdir(root, { recursive: true });
    await writeFile(path.join(root, 'package.json'), JSON.stringify({ name: 'some', version: '1.2.3', main, engines, keyframe: MANIFEST }));
    await writeFile(path.join(root, 'index.js'), 'export default class {}');
  }

  it('fingerprints a package of the user plugins folder, and only those', async () => {
    await writePackage(path.join(folder, 'some'), 'index.js');
    const user = await discoverPlugins([{ path: folder, source: 'user' }]);
    expect(user.plugins[0]).to.deep.include({ version: '1.2.3', source: 'user' });
    expect(user.plugins[0]!.contentHash).to.match(/^[0-9a-f]{64}$/);
    const installed = await discoverPlugins([{ path: folder, source: 'install' }]);
    expect(installed.plugins[0]!.contentHash).to.equal(undefined);
  });

  it('refuses a package for another Keyframe version, and warns about one that declares no range', async () => {
    await writePackage(path.join(folder, 'some'), 'index.js', { keyframe: '^0.2.0' });
    const { refused } = await discoverPlugins([{ path: folder, source: 'install' }], '0.1.0');
    expect(refused).to.deep.equal([
      { packageRoot: path.join(folder, 'some'), key: 'someGame', reason: 'needs Keyframe ^0.2.0; this is 0.1.0', warnings: [] },
    ]);
    await writePackage(path.join(folder, 'some'), 'index.js', {});
    const { plugins } = await discoverPlugins([{ path: folder, source: 'install' }], '0.1.0');
    expect(plugins[0]!.warnings).to.deep.equal([
      'package.json declares no engines.keyframe range: it is loaded, but nothing says it works with Keyframe 0.1.0',
    ]);
  });

  it('refuses a package with its own copy of core, but not a development folder whose copy is the core running', async () => {
    const bundling = path.join(folder, 'bundling');
    await writePackage(bundling, 'index.js');
    await mkdir(path.join(bundling, 'node_modules', '@keyframe', 'core'), { recursive: true });
    expect(await inspectPackage(bundling))
      .to.have.property('reason')
      .that.matches(/bundles its own copy of @keyframe\/core/);

    const developing = path.join(folder, 'developing');
    await writePackage(developing, 'index.js');
    await mkdir(path.join(developing, 'node_modules', '@keyframe'), { recursive: true });
    await symlink(corePackageRoot(), path.join(developing, 'node_modules', '@keyframe', 'core'));
    expect(await inspectPackage(developing)).to.not.have.property('reason');
  });

  it('refuses a package whose entry lies outside it: the fingerprint would not cover it', async () => {
    await writePackage(path.join(folder, 'some'), '../elsewhere.js');
    const { plugins, refused } = await discoverPlugins([{ path: folder, source: 'install' }]);
    expect(plugins).to.deep.equal([]);
    expect(refused[0]!.reason).to.match(/lies outside the package/);
  });

  it('refuses a package under a scope folder every user can write to, naming that folder', async function () {
    if (process.getuid === undefined) this.skip();
    await writePackage(path.join(folder, '@scope', 'some'), 'index.js');
    await chmod(path.join(folder, '@scope'), 0o777);
    const { plugins, refused } = await discoverPlugins([{ path: folder, source: 'install' }]);
    expect(plugins).to.deep.equal([]);
    expect(refused).to.deep.equal([
      {
        packageRoot: path.join(folder, '@scope', 'some'),
        key: 'someGame',
        reason: `others can change it: ${path.join(folder, '@scope')}: every user can write to it`,
        warnings: [],
      },
    ]);
  });

  describe('what is wrong with a package.json', () => {
    const writeJson = async (name: string, text: string) => {
      await mkdir(path.join(folder, name), { recursive: true });
      await writeFile(path.join(folder, name, 'package.json'), text);
      await writeFile(path.join(folder, name, 'index.js'), 'export default class {}');
    };

    it('refuses a package.json that does not parse, with where, in the folders people fill by hand only', async () => {
      await writeJson('broken', '{\n  "name": "broken",\n  "main": "index.js"\n  "keyframe": {}\n}\n');
      const { refused } = await discoverPlugins([{ path: folder, source: 'user' }]);
      expect(refused).to.have.length(1);
      expect(refused[0]!.packageRoot).to.equal(path.join(folder, 'broken'));
      expect(refused[0]!.reason).to.match(/^package\.json does not parse: .* \(line 4, column 3\)$/);
      expect(await discoverPlugins([{ path: folder, source: 'install' }])).to.deep.equal({ plugins: [], refused: [] });
    });

    it('refuses a misspelt keyframe block, saying which was meant, under the key it claims', async () => {
      await writeJson('typo', JSON.stringify({ name: 'typo', main: 'index.js', keyFrame: MANIFEST }));
      await writeJson('other', JSON.stringify({ name: 'other', main: 'index.js', keywords: ['frame'] }));
      const { plugins, refused } = await discoverPlugins([{ path: folder, source: 'environment' }]);
      expect(plugins).to.deep.equal([]);
      expect(refused).to.deep.equal([
        {
          packageRoot: path.join(folder, 'typo'),
          key: 'someGame',
          reason: 'package.json has no "keyframe" block but a "keyFrame" block: did you mean `keyframe`?',
          warnings: [],
        },
      ]);
      expect((await discoverPlugins([{ path: folder, source: 'install' }])).refused).to.deep.equal([]);
    });

    it('warns of unknown manifest fields with the field meant, also on a package it refuses', async () => {
      const integration = { ...MANIFEST.integration, displayname: 'x', games: [{ name: 'Some', executables: ['some.exe'], exe: 'x' }] };
      await writeJson(
        'fields',
        JSON.stringify({
          name: 'fields',
          main: 'index.js',
          engines: { keyframe: '>=0.1.0' },
          keyframe: { ...MANIFEST, apiversion: 1, integration },
        }),
      );
      const { feeds: _feeds, ...withoutFeeds } = MANIFEST.integration;
      await writeJson(
        'missing',
        JSON.stringify({
          name: 'missing',
          main: 'index.js',
          keyframe: { apiVersion: 1, integration: { ...withoutFeeds, key: 'missingFeeds', feed: [] } },
        }),
      );
      const { plugins, refused } = await discoverPlugins([{ path: folder, source: 'install' }]);
      expect(plugins[0]!.warnings).to.deep.equal([
        'unknown field keyframe.apiversion: did you mean `apiVersion`?',
        'unknown field keyframe.integration.displayname: did you mean `displayName`?',
        'unknown field keyframe.integration.games[0].exe: it knows name, executables',
      ]);
      expect(refused[0]!.reason).to.equal('bad keyframe manifest: /integration: missing feeds');
      expect(refused[0]!.warnings).to.deep.equal(['unknown field keyframe.integration.feed: did you mean `feeds`?']);
    });
  });
});
