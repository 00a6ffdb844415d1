// Puts a file on the system clipboard, as a file (paste in a chat or file manager attaches it):
// wl-copy or xclip with `text/uri-list`, PowerShell `Set-Clipboard -LiteralPath`, AppleScript on macOS.
import { pathToFileURL } from 'node:url';
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../protocol/refusal.js';
import { DESKTOP_TOOLS, type DesktopTools } from './desktop-tools.js';

@injectable()
export class Clipboard {
  constructor(@inject(DESKTOP_TOOLS) private readonly tools: DesktopTools) {}

  /** Copies `file` (absolute). Throws `CommandError` (`Unavailable`, `Failed`) saying what to install or check. */
  async copyFile(file: string): Promise<void> {
    const { platform, variables } = this.tools;
    if (platform === 'win32') {
      const exit = await this.tools.run('powershell.exe', [
        '-NoProfile',
        '-NonInteractive',
        '-Command',
        `Set-Clipboard -LiteralPath '${file.replaceAll("'", "''")}'`,
      ]);
      if (!exit)
        throw new CommandError(
          'Unavailable',
          'PowerShell (powershell.exe) is needed to copy files to the clipboard and could not be started.',
        );
      return failIfNonZero(exit.code, 'PowerShell could not put the file on the clipboard');
    }
    if (platform === 'darwin') {
      const escaped = file.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
      const exit = await this.tools.run('osascript', ['-e', `set the clipboard to (POSIX file "${escaped}")`]);
      if (!exit) throw new CommandError('Unavailable', 'osascript is needed to copy files to the clipboard and could not be started.');
      return failIfNonZero(exit.code, 'osascript could not put the file on the clipboard');
    }
    const uriList = `${pathToFileURL(file).href}\r\n`;
    const wayland = Boolean(variables.WAYLAND_DISPLAY);
    const x11 = Boolean(variables.DISPLAY);
    if (!wayland && !x11) {
      throw new CommandError(
        'Unavailable',
        'There is no desktop session (neither WAYLAND_DISPLAY nor DISPLAY is set), so there is no clipboard to copy to.',
      );
    }
    if (wayland) {
      const exit = await this.tools.run('wl-copy', ['--type', 'text/uri-list'], uriList);
      if (exit) return failIfNonZero(exit.code, 'wl-copy could not put the file on the clipboard');
    }
    if (x11) {
      const exit = await this.tools.run('xclip', ['-selection', 'clipboard', '-t', 'text/uri-list', '-i'], uriList);
      if (exit) return failIfNonZero(exit.code, 'xclip could not put the file on the clipboard');
    }
    throw new CommandError(
      'Unavailable',
      wayland
        ? 'Copying files to the clipboard needs wl-copy: install wl-clipboard (or xclip for X11 applications).'
        : 'Copying files to the clipboard needs xclip: install xclip.',
    );
  }
}

function failIfNonZero(code: number | undefined, message: string): void {
  if (code !== undefined && code !== 0) throw new CommandError('Failed', `${message} (exit code ${code}).`);
}
