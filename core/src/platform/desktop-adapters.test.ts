import 'reflect-metadata';
import { expect } from 'chai';
import { commandRejection } from '../testing/fixtures.js';
import { Clipboard } from './clipboard.js';
import type { DesktopToolExit, DesktopTools } from './desktop-tools.js';
import { FileManager } from './file-manager.js';

/** Tools that record what was run; `installed` lists the tools that exist, each exiting with `code`. */
function fakeTools(platform: NodeJS.Platform, installed: readonly string[], variables: NodeJS.ProcessEnv = {}, code = 0) {
  const runs: { command: string; args: readonly string[]; input?: string }[] = [];
  const tools: DesktopTools = {
    platform,
    variables,
    run: (command, args, input): Promise<DesktopToolExit | undefined> => {
      runs.push({ command, args, ...(input === undefined ? {} : { input }) });
      return Promise.resolve(installed.includes(command) ? { code } : undefined);
    },
  };
  return { tools, runs };
}

describe('FileManager', () => {
  it('opens the folder with xdg-open on Linux, selects the file with Explorer and Finder', async () => {
    const linux = fakeTools('linux', ['xdg-open']);
    await new FileManager(linux.tools).reveal('/videos/Clips/Game/a b.mp4');
    expect(linux.runs).to.deep.equal([{ command: 'xdg-open', args: ['/videos/Clips/Game'] }]);
    const windows = fakeTools('win32', ['explorer.exe'], {}, 1);
    await new FileManager(windows.tools).reveal('C:/Videos/Clips/a.mp4');
    expect(windows.runs).to.deep.equal([{ command: 'explorer.exe', args: ['/select,C:\\Videos\\Clips\\a.mp4'] }]);
    const mac = fakeTools('darwin', ['open']);
    await new FileManager(mac.tools).reveal('/Users/me/Movies/a.mp4');
    expect(mac.runs).to.deep.equal([{ command: 'open', args: ['-R', '/Users/me/Movies/a.mp4'] }]);
  });

  it('opens a folder itself with xdg-open, Explorer and Finder', async () => {
    const linux = fakeTools('linux', ['xdg-open']);
    await new FileManager(linux.tools).openFolder('/videos');
    expect(linux.runs).to.deep.equal([{ command: 'xdg-open', args: ['/videos'] }]);
    const windows = fakeTools('win32', ['explorer.exe'], {}, 1);
    await new FileManager(windows.tools).openFolder('C:/Videos');
    expect(windows.runs).to.deep.equal([{ command: 'explorer.exe', args: ['C:\\Videos'] }]);
    const mac = fakeTools('darwin', ['open']);
    await new FileManager(mac.tools).openFolder('/Users/me/Movies');
    expect(mac.runs).to.deep.equal([{ command: 'open', args: ['/Users/me/Movies'] }]);
  });

  it('says what to install when no opener exists, and reports a failing one', async () => {
    const missing = await commandRejection(new FileManager(fakeTools('linux', []).tools).reveal('/v/a.mp4'), 'Unavailable');
    expect(missing.message).to.include('xdg-utils');
    const failing = await commandRejection(new FileManager(fakeTools('linux', ['xdg-open'], {}, 4).tools).reveal('/v/a.mp4'), 'Failed');
    expect(failing.message).to.include('exit code 4');
  });
});

describe('Clipboard', () => {
  it('copies a file as text/uri-list with wl-copy on Wayland, xclip on X11', async () => {
    const wayland = fakeTools('linux', ['wl-copy', 'xclip'], { WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' });
    await new Clipboard(wayland.tools).copyFile('/videos/a b.mp4');
    expect(wayland.runs).to.deep.equal([{ command: 'wl-copy', args: ['--type', 'text/uri-list'], input: 'file:///videos/a%20b.mp4\r\n' }]);
    const x11 = fakeTools('linux', ['xclip'], { WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' });
    await new Clipboard(x11.tools).copyFile('/videos/a.mp4');
    expect(x11.runs.map((run) => run.command)).to.deep.equal(['wl-copy', 'xclip']);
    expect(x11.runs[1]).to.deep.include({
      args: ['-selection', 'clipboard', '-t', 'text/uri-list', '-i'],
      input: 'file:///videos/a.mp4\r\n',
    });
  });

  it('uses PowerShell Set-Clipboard on Windows and osascript on macOS, quoting the path', async () => {
    const windows = fakeTools('win32', ['powershell.exe']);
    await new Clipboard(windows.tools).copyFile("C:/Videos/it's.mp4");
    expect(windows.runs[0]!.args.at(-1)).to.equal("Set-Clipboard -LiteralPath 'C:/Videos/it''s.mp4'");
    const mac = fakeTools('darwin', ['osascript']);
    await new Clipboard(mac.tools).copyFile('/Movies/say "hi".mp4');
    expect(mac.runs[0]!.args).to.deep.equal(['-e', 'set the clipboard to (POSIX file "/Movies/say \\"hi\\".mp4")']);
  });

  it('refuses clearly without a desktop session or a clipboard tool', async () => {
    expect(
      (await commandRejection(new Clipboard(fakeTools('linux', ['xclip']).tools).copyFile('/v/a.mp4'), 'Unavailable')).message,
    ).to.include('DISPLAY');
    expect(
      (await commandRejection(new Clipboard(fakeTools('linux', [], { DISPLAY: ':0' }).tools).copyFile('/v/a.mp4'), 'Unavailable')).message,
    ).to.include('install xclip');
    expect(
      (await commandRejection(new Clipboard(fakeTools('linux', [], { WAYLAND_DISPLAY: 'w' }).tools).copyFile('/v/a.mp4'), 'Unavailable'))
        .message,
    ).to.include('wl-clipboard');
    expect(
      (await commandRejection(new Clipboard(fakeTools('linux', ['xclip'], { DISPLAY: ':0' }, 1).tools).copyFile('/v/a.mp4'), 'Failed'))
        .message,
    ).to.include('xclip');
  });
});
