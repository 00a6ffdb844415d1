import { expect } from 'chai';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { locateNpm } from './plugin-npm.js';

describe('locating npm', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'npm-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  const touch = async (file: string) => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '');
    await chmod(file, 0o755);
  };

  it("prefers the npm shipped beside node, then npm's own npm_execpath, then PATH", async () => {
    const node = path.join(folder, 'node', 'bin', 'node');
    const onPath = path.join(folder, 'path');
    await touch(path.join(onPath, process.platform === 'win32' ? 'npm.cmd' : 'npm'));
    expect(locateNpm({ PATH: onPath }, node)).to.deep.include({
      command: path.join(onPath, process.platform === 'win32' ? 'npm.cmd' : 'npm'),
    });

    const running = path.join(folder, 'elsewhere', 'npm-cli.js');
    await touch(running);
    expect(locateNpm({ PATH: onPath, npm_execpath: running }, node)).to.deep.equal({ command: node, prefix: [running], shell: false });
    expect(locateNpm({ npm_execpath: path.join(folder, 'yarn.js') }, node), 'yarn is not npm').to.equal(undefined);

    const beside = path.join(folder, 'node', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
    await touch(beside);
    expect(locateNpm({ PATH: onPath, npm_execpath: running }, node)).to.deep.equal({ command: node, prefix: [beside], shell: false });
  });

  it('finds nothing where there is no npm', () => {
    expect(locateNpm({ PATH: folder }, path.join(folder, 'node'))).to.equal(undefined);
  });
});
