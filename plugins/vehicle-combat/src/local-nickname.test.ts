import { DiskGameFiles } from '@keyframe/core';
import { TestGamePaths } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loggedInSession, writeClog } from './clog-fixtures.js';
import { logFolderCandidates, readLocalNickname } from './local-nickname.js';

function gamePaths(root: string, libraries: string[] = []): TestGamePaths {
  const paths = new TestGamePaths(root);
  paths.steamLibraryFolders = libraries;
  return paths;
}

describe('logFolderCandidates', () => {
  it('walks up from the executable to the War Thunder folder, then the launcher install and Steam libraries', async () => {
    const folders = await logFolderCandidates('/games/War Thunder/linux64/aces', gamePaths('/u', ['/steam']));
    expect(folders).to.deep.equal([
      '/games/War Thunder/linux64/.game_logs',
      '/games/War Thunder/.game_logs',
      '/u/local/WarThunder/.game_logs',
      '/steam/steamapps/common/War Thunder/.game_logs',
    ]);
  });

  it('stops a few levels up when the game is not in a War Thunder folder, and works without an executable', async () => {
    expect(await logFolderCandidates('/a/b/c/d/e/aces', gamePaths('/u'))).to.deep.equal([
      '/a/b/c/d/e/.game_logs',
      '/a/b/c/d/.game_logs',
      '/a/b/c/.game_logs',
      '/a/b/.game_logs',
      '/u/local/WarThunder/.game_logs',
    ]);
    expect(await logFolderCandidates(undefined, gamePaths('/u'))).to.deep.equal(['/u/local/WarThunder/.game_logs']);
  });

  it('goes on without Steam libraries when listing them fails', async () => {
    const paths = Object.assign(gamePaths('/u'), {
      steamLibraries: async () => {
        throw new Error('no Steam');
      },
    });
    expect(await logFolderCandidates(undefined, paths)).to.deep.equal(['/u/local/WarThunder/.game_logs']);
  });
});

describe('readLocalNickname', () => {
  const files = new DiskGameFiles();
  let temp: string;
  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'vehicle-combat-'));
  });
  afterEach(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  it('reads the nickname from the most recently written log of all folders', async () => {
    const first = path.join(temp, 'a');
    const second = path.join(temp, 'b');
    await writeClog(first, '2026_01_01_10_00_00__1.clog', loggedInSession('OldAccount'), new Date('2026-01-01T10:00:00Z'));
    const newest = await writeClog(second, '2026_01_02_10_00_00__1.clog', loggedInSession('CassualTux'), new Date('2026-01-02T10:00:00Z'));
    await writeClog(first, '2026_01_01_09_00_00__1.clog', loggedInSession('Older'), new Date('2026-01-01T09:00:00Z'));
    expect(await readLocalNickname([first, second], files)).to.deep.equal({ nickname: 'CassualTux', file: newest });
  });

  it('says why there is no nickname: no folder, no log, or a log without a login', async () => {
    const missing = await readLocalNickname([path.join(temp, 'nowhere')], files);
    expect(missing).to.deep.include({ nickname: undefined });
    expect(missing)
      .to.have.property('reason')
      .that.matches(/no \*\.clog file in .*nowhere/);

    await writeFile(path.join(temp, 'notes.txt'), 'not a log');
    expect(await readLocalNickname([temp], files))
      .to.have.property('reason')
      .that.matches(/no \*\.clog file/);

    const file = await writeClog(temp, 'session.clog', '0.012 [I]  $07 start logging\n');
    expect(await readLocalNickname([temp], files)).to.deep.equal({ nickname: undefined, reason: `${file} names no logged-in player yet` });
  });
});
