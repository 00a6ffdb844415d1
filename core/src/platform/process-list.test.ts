import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { executableName, listProcesses, parsePs, parseTasklist, psArguments, tasklistArguments } from './process-list.js';

const NOBODY = 65534;

describe('process list', () => {
  describe('Windows (tasklist)', () => {
    it('asks tasklist for the processes of this user only', () => {
      expect(tasklistArguments('DESKTOP-1\\Ann Lee')).to.deep.equal(['/FO', 'CSV', '/NH', '/FI', 'USERNAME eq DESKTOP-1\\Ann Lee']);
    });

    it('reads its CSV lines and skips the rest, e.g. the line it prints when nothing matches', () => {
      const stdout = ['"cs2.exe","4242","Console","1","1,234,567 K"', '"Steam Helper.exe","17","Console","1","52 K"', ''].join('\r\n');
      expect(parseTasklist(stdout)).to.deep.equal([
        { pid: 4242, executable: 'cs2.exe' },
        { pid: 17, executable: 'Steam Helper.exe' },
      ]);
      expect(parseTasklist('INFO: No tasks are running which match the specified criteria.\r\n')).to.deep.equal([]);
    });
  });

  describe('macOS (ps)', () => {
    it("asks ps for the processes whose real uid is this user's, with or without a terminal", () => {
      expect(psArguments(501)).to.deep.equal(['-x', '-U', '501', '-o', 'pid=,comm=']);
    });

    it('reads pid and command, paths with spaces included', () => {
      expect(parsePs('  311 /Applications/Some Game.app/Contents/MacOS/Some Game\n 9 /sbin/launchd\n')).to.deep.equal([
        { pid: 311, executable: '/Applications/Some Game.app/Contents/MacOS/Some Game' },
        { pid: 9, executable: '/sbin/launchd' },
      ]);
    });
  });

  describe('Linux (/proc)', () => {
    let folder: string;
    const children: ChildProcess[] = [];
    before(async function () {
      if (process.platform !== 'linux') this.skip();
      folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-process-list-'));
      await chmod(folder, 0o755); // another user must be able to run the copy inside
      await copyFile('/bin/sleep', path.join(folder, 'stand-in-game'));
    });
    after(async () => {
      for (const child of children) child.kill('SIGKILL');
      if (folder) await rm(folder, { recursive: true, force: true });
    });

    async function start(options: { uid?: number; gid?: number } = {}): Promise<number> {
      const child = spawn(path.join(folder, 'stand-in-game'), ['30'], { stdio: 'ignore', ...options });
      children.push(child);
      await once(child, 'spawn');
      return child.pid!;
    }

    it("lists this user's processes with their executable", async () => {
      const pid = await start();
      const listed = await listProcesses('linux');
      expect(listed).to.deep.include({ pid, executable: path.join(folder, 'stand-in-game') });
      expect(listed.map((entry) => entry.pid)).to.include(process.pid);
    });

    it('leaves out the processes of another user', async function () {
      if (process.getuid!() !== 0) {
        this.test!.title += ' (skipped: only root can start a process as another user)';
        this.skip();
      }
      const theirs = await start({ uid: NOBODY, gid: NOBODY });
      const ours = await start();
      const listed = (await listProcesses('linux')).map((entry) => entry.pid);
      expect(listed).to.include(ours);
      expect(listed).to.not.include(theirs);
    });
  });

  it('names the executable of a Windows or POSIX path by its last part', () => {
    expect(executableName('C:\\Games\\Arena\\arena.exe')).to.equal('arena.exe');
    expect(executableName('/opt/games/arena/arena')).to.equal('arena');
    expect(executableName('arena.exe')).to.equal('arena.exe');
    expect(executableName('/opt/games/')).to.equal('/opt/games/');
  });
});
