import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashPackageContents } from './package-contents.js';

describe('package contents hash', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'package-contents-'));
    await mkdir(path.join(root, 'dist'));
    await writeFile(path.join(root, 'package.json'), '{"name":"p"}');
    await writeFile(path.join(root, 'dist', 'index.js'), 'export default 1;\n');
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is SHA-256 over each file as path, NUL, length, NUL, contents, in byte order of the paths', async () => {
    const expected = createHash('sha256');
    for (const [name, content] of [
      ['dist/index.js', 'export default 1;\n'],
      ['package.json', '{"name":"p"}'],
    ] as const) {
      expected.update(`${name}\0${Buffer.byteLength(content)}\0${content}`);
    }
    expect(await hashPackageContents(root)).to.deep.equal({ hash: expected.digest('hex'), files: 2, bytes: 30 });
  });

  it("changes with one byte of code, and ignores the package's own node_modules", async () => {
    const before = await hashPackageContents(root);
    await mkdir(path.join(root, 'node_modules', 'dep'), { recursive: true });
    await writeFile(path.join(root, 'node_modules', 'dep', 'index.js'), 'x');
    expect(await hashPackageContents(root)).to.deep.equal(before);
    await writeFile(path.join(root, 'dist', 'index.js'), 'export default 2;\n');
    expect(await hashPackageContents(root)).to.not.deep.equal(before);
  });

  it('refuses a package with a symbolic link or a file others can write', async function () {
    await symlink(path.join(root, 'package.json'), path.join(root, 'link.json'));
    expect(await hashPackageContents(root))
      .to.have.property('problem')
      .that.matches(/link\.json is a symbolic link/);
    await rm(path.join(root, 'link.json'));
    if (process.getuid === undefined) return;
    await chmod(path.join(root, 'dist', 'index.js'), 0o666);
    expect(await hashPackageContents(root))
      .to.have.property('problem')
      .that.matches(/index\.js: every user can write to it/);
  });
});
