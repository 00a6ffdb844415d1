// Shows a file in the system file manager: the folder with the file selected where the platform can
// (Explorer `/select,`, Finder `open -R`), the folder itself with xdg-open elsewhere.
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../protocol/refusal.js';
import { DESKTOP_TOOLS, type DesktopTools } from './desktop-tools.js';

@injectable()
export class FileManager {
  constructor(@inject(DESKTOP_TOOLS) private readonly tools: DesktopTools) {}

  /** Reveals `file` (absolute). Throws `CommandError` (`Unavailable`, `Failed`) saying what to install or check. */
  async reveal(file: string): Promise<void> {
    const { platform } = this.tools;
    if (platform === 'win32') {
      // Explorer exits with 1 even when it opened the window, so only "not there" is a failure.
      const exit = await this.tools.run('explorer.exe', [`/select,${file.replaceAll('/', '\\')}`]);
      if (!exit)
        throw new CommandError('Unavailable', 'Windows Explorer (explorer.exe) could not be started, so the file cannot be shown.');
      return;
    }
    if (platform === 'darwin') {
      const exit = await this.tools.run('open', ['-R', file]);
      if (!exit)
        throw new CommandError('Unavailable', 'The macOS `open` tool could not be started, so the file cannot be shown in Finder.');
      failIfNonZero(exit.code, `open -R could not show ${file} in Finder`);
      return;
    }
    await this.openFolder(path.dirname(file));
  }

  /** Opens `folder` (absolute) in the file manager. Throws `CommandError` as `reveal` does. */
  async openFolder(folder: string): Promise<void> {
    const { platform } = this.tools;
    if (platform === 'win32') {
      if (!(await this.tools.run('explorer.exe', [folder.replaceAll('/', '\\')])))
        throw new CommandError('Unavailable', 'Windows Explorer (explorer.exe) could not be started, so the folder cannot be opened.');
      return;
    }
    const opener = platform === 'darwin' ? 'open' : 'xdg-open';
    const exit = await this.tools.run(opener, [folder]);
    if (platform === 'darwin') {
      if (!exit) throw new CommandError('Unavailable', 'The macOS `open` tool could not be started, so the folder cannot be opened.');
      failIfNonZero(exit.code, `open could not open ${folder} in Finder`);
      return;
    }
    if (!exit) {
      throw new CommandError('Unavailable', `No file manager opener is installed: install xdg-utils (xdg-open) to open ${folder}.`);
    }
    failIfNonZero(exit.code, `xdg-open could not open ${folder}: is a desktop session running with a file manager?`);
  }
}

function failIfNonZero(code: number | undefined, message: string): void {
  if (code !== undefined && code !== 0) throw new CommandError('Failed', `${message} (exit code ${code}).`);
}
