import { expect } from 'chai';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { create } from 'tar';
import { InstallRoot } from './install-root.js';

describe('InstallRoot', () => {
  let folder: string;
  let root: InstallRoot;

  /** A .tar.gz of `files` (relative path -> content). */
  async function packageOf(name: string, files: Record<string, string>): Promise<string> {
    const source = path.join(folder, `source-${name}`);
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(source, file)), { recursive: true });
      await writeFile(path.join(source, file), content);
    }
    const archive = path.join(folder, `${name}.tar.gz`);
    await create({ gzip: true, file: archive, cwd: source }, Object.keys(files));
    return archive;
  }

  beforeEach(async () => {
    folder = await realpath(await mkdtemp(path.join(os.tmpdir(), 'keyframe-install-root-')));
    root = new InstallRoot(path.join(folder, 'root'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('unpacks a package beside the others and switches current to it, keeping the previous one', async () => {
    const first = await root.unpack(await packageOf('one', { 'app/main.js': 'one' }), '1.0.0');
    await root.switchTo(first);
    expect(await root.currentVersionFolder()).to.equal(first);
    const second = await root.unpack(await packageOf('two', { 'app/main.js': 'two' }), '1.1.0');
    expect(await readFile(path.join(root.currentLink, 'app/main.js'), 'utf8')).to.equal('one');
    await root.switchTo(second);
    expect(await readFile(path.join(root.currentLink, 'app/main.js'), 'utf8')).to.equal('two');
    expect(await readdir(root.versionsFolder)).to.have.members(['1.0.0', '1.1.0']);
    expect((await readdir(root.folder)).filter((name) => name.startsWith('.current-'))).to.deep.equal([]);
  });

  it('replaces a leftover folder of the same version but never the running one', async () => {
    const running = await root.unpack(await packageOf('one', { 'main.js': 'one' }), '1.0.0');
    await root.switchTo(running);
    await root.unpack(await packageOf('broken', { 'main.js': 'broken', 'stale.txt': 'x' }), '2.0.0');
    const again = await root.unpack(await packageOf('two', { 'main.js': 'two' }), '2.0.0');
    expect(await readdir(again)).to.deep.equal(['main.js']);
    let refusal: unknown;
    await root.unpack(await packageOf('again', { 'main.js': 'again' }), '1.0.0').catch((error: unknown) => {
      refusal = error;
    });
    expect(String(refusal)).to.match(/the one running/);
  });

  it('refuses a damaged package and leaves no partial version folder', async () => {
    const damaged = path.join(folder, 'damaged.tar.gz');
    await writeFile(damaged, 'this is not gzip');
    let refusal: unknown;
    await root.unpack(damaged, '3.0.0').catch((error: unknown) => {
      refusal = error;
    });
    expect(String(refusal)).to.match(/could not be unpacked/);
    expect(await readdir(root.versionsFolder)).to.deep.equal([]);
  });

  it('names version folders only after semantic versions', () => {
    expect(() => root.versionFolder('../../etc')).to.throw(/not a semantic version/);
    expect(root.versionFolder('1.2.3-beta.1')).to.equal(path.join(root.versionsFolder, '1.2.3-beta.1'));
  });
});
