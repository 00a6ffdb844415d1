// Opens a web page in the user's default browser: xdg-open, macOS `open`, or the Windows URL
// handler (rundll32, which unlike `cmd /c start` needs no quoting of & in the URL).
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../protocol/refusal.js';
import { DESKTOP_TOOLS, type DesktopTools } from './desktop-tools.js';

@injectable()
export class WebBrowser {
  constructor(@inject(DESKTOP_TOOLS) private readonly tools: DesktopTools) {}

  /** Opens `url` (already checked to be http or https). Throws `CommandError` (`Unavailable`, `Failed`). */
  async open(url: string): Promise<void> {
    const { platform } = this.tools;
    const [command, args, missing] =
      platform === 'win32'
        ? [
            'rundll32.exe',
            ['url.dll,FileProtocolHandler', url],
            'The Windows URL handler (rundll32.exe) could not be started, so the page cannot be opened.',
          ]
        : platform === 'darwin'
          ? ['open', [url], 'The macOS `open` tool could not be started, so the page cannot be opened.']
          : ['xdg-open', [url], `No browser opener is installed: install xdg-utils (xdg-open) to open ${url}.`];
    const exit = await this.tools.run(command, args);
    if (!exit) throw new CommandError('Unavailable', missing);
    if (exit.code !== undefined && exit.code !== 0 && platform !== 'win32') {
      throw new CommandError(
        'Failed',
        `${command} could not open ${url} (exit code ${exit.code}): is a desktop session with a default browser running?`,
      );
    }
  }
}
