import { expect } from 'chai';
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { foreignWriteAccess, othersCanWrite } from './write-access.js';

const ME = 1000;
const folder = (mode: number, uid = ME, gid = ME + 1) => ({ mode: 0o040000 | mode, uid, gid });

describe('write access of others', () => {
  it('accepts what only its owner (this user or root) can write', () => {
    expect(othersCanWrite(folder(0o755), { allowSticky: false }, { uid: ME, gid: ME + 1 })).to.equal(undefined);
    expect(othersCanWrite(folder(0o755, 0), { allowSticky: false }, { uid: ME, gid: ME + 1 })).to.equal(undefined);
  });

  it('names another owner, a world-writable and a group-writable folder', () => {
    expect(othersCanWrite(folder(0o755, 1234), { allowSticky: false }, { uid: ME, gid: ME + 1 })).to.match(
      /owned by another user \(uid 1234\)/,
    );
    expect(othersCanWrite(folder(0o757), { allowSticky: false }, { uid: ME, gid: ME + 1 })).to.match(/every user can write/);
    expect(othersCanWrite(folder(0o775, ME, 50), { allowSticky: false }, { uid: ME, gid: ME + 1 })).to.match(/group 50/);
  });

  it("accepts a sticky folder (like /tmp) only where the rules allow it, and the user's private group", () => {
    expect(othersCanWrite(folder(0o1777, 0), { allowSticky: true }, { uid: ME, gid: ME + 1 })).to.equal(undefined);
    expect(othersCanWrite(folder(0o1777, 0), { allowSticky: false }, { uid: ME, gid: ME + 1 })).to.match(/every user/);
    expect(othersCanWrite(folder(0o775, ME, ME), { allowSticky: false }, { uid: ME, gid: ME })).to.equal(undefined);
  });

  it('checks nothing where there are no user ids (Windows)', () => {
    expect(othersCanWrite(folder(0o777, 1234), { allowSticky: false }, { uid: undefined, gid: undefined })).to.equal(undefined);
  });

  describe('on disk', function () {
    let base: string;
    before(function () {
      if (process.getuid === undefined) this.skip();
    });
    beforeEach(async () => {
      base = await mkdtemp(path.join(tmpdir(), 'write-access-'));
    });
    afterEach(async () => {
      await rm(base, { recursive: true, force: true });
    });

    it('finds a world-writable folder between a package and the folder it was found in', async () => {
      const scanned = path.join(base, 'node_modules');
      const pkg = path.join(scanned, '@scope', 'plugin');
      await mkdir(pkg, { recursive: true });
      expect(await foreignWriteAccess(pkg, scanned)).to.equal(undefined);
      await chmod(path.join(scanned, '@scope'), 0o777);
      expect(await foreignWriteAccess(pkg, scanned)).to.equal(`${path.join(scanned, '@scope')}: every user can write to it`);
    });

    it('finds a package folder owned by another user', async function () {
      if (process.getuid?.() !== 0) this.skip();
      const pkg = path.join(base, 'plugin');
      await mkdir(pkg);
      await chown(pkg, 4321, 4321);
      expect(await foreignWriteAccess(pkg, base)).to.match(/owned by another user \(uid 4321\)/);
    });
  });
});
