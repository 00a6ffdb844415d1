import { expect } from 'chai';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { commandRejection, makeReadOnly, undoReadOnly } from '../testing/fixtures.js';
import { forbiddenPlace, untrustedFolderReason, usableFolder } from './valid-folder.js';

describe('folder rules', () => {
  let folder: string;
  const home = '/home/player';
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-folder-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('refuses drive roots, system folders and what is below them, and whole shared folders, but not folders below those', () => {
    expect(forbiddenPlace('/', home)).to.equal('it is the root of a drive');
    for (const system of ['/proc', '/sys', '/dev', '/etc', '/usr', '/boot', '/bin'])
      expect(forbiddenPlace(system, home), system).to.equal('it is a system folder');
    expect(forbiddenPlace('/dev/null', home)).to.equal('it is inside the system folder /dev');
    expect(forbiddenPlace('/usr/share/videos', home)).to.equal('it is inside the system folder /usr');
    expect(forbiddenPlace(home, home)).to.equal('it is your whole home folder');
    for (const shared of ['/var', '/tmp', '/home', '/mnt', '/media', '/run'])
      expect(forbiddenPlace(shared, home), shared).to.match(/far more/);
    for (const fine of [
      `${home}/Videos/Keyframe`,
      '/var/tmp/videos',
      '/mnt/games/Keyframe',
      '/run/media/player/disk/Keyframe',
      '/tmp/keyframe-x',
      '/devices',
    ]) {
      expect(forbiddenPlace(fine, home), fine).to.equal(undefined);
    }
  });

  it('creates a usable folder; refuses a file, a read-only folder and a link that leads to a system folder', async () => {
    const made = path.join(folder, 'a', 'b');
    expect(await usableFolder(made, home)).to.equal(made);
    const file = path.join(folder, 'file');
    await writeFile(file, 'x');
    expect((await commandRejection(usableFolder(file, home), 'InvalidParameters')).message)
      .to.include(file)
      .and.include('a file, not a folder');
    const link = path.join(folder, 'etc-link');
    await symlink('/etc', link);
    expect((await commandRejection(usableFolder(link, home), 'InvalidParameters')).message).to.include('it leads to /etc');
    const readOnly = path.join(folder, 'read-only');
    await mkdir(readOnly);
    await makeReadOnly(readOnly);
    try {
      expect((await commandRejection(usableFolder(readOnly, home), 'InvalidParameters')).message)
        .to.include(readOnly)
        .and.include('read-only');
    } finally {
      await undoReadOnly(readOnly);
    }
  });

  it('at start, distrusts a forbidden place or a file, but not a folder that is missing (its drive may be unplugged)', async () => {
    expect(await untrustedFolderReason('/', home)).to.equal('it is the root of a drive');
    expect(await untrustedFolderReason('/dev/null', home)).to.equal('it is inside the system folder /dev');
    await writeFile(path.join(folder, 'file'), 'x');
    expect(await untrustedFolderReason(path.join(folder, 'file'), home)).to.equal('it is not a folder');
    expect(await untrustedFolderReason(path.join(folder, 'unplugged', 'Videos'), home)).to.equal(undefined);
    expect(await untrustedFolderReason('relative', home)).to.include('not an absolute path');
  });
});
