// Desktop commands that are not about a library file: OpenInBrowser (http and https only) and
// ToggleFullscreen (handed to the desktop shell when one embeds the service).
import { inject, injectable } from 'tsyringe';
import { DESKTOP_WINDOW, type DesktopWindow } from '../platform/desktop-window.js';
import { WebBrowser } from '../platform/web-browser.js';
import { Logger } from '../support/logger.js';
import { CommandError } from '../protocol/refusal.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

const WEB_PROTOCOLS = new Set(['http:', 'https:']);

@injectable()
export class DesktopCommands implements CommandGroup {
  private readonly logger: Logger;

  constructor(
    private readonly browser: WebBrowser,
    @inject(DESKTOP_WINDOW) private readonly window: DesktopWindow,
    logger: Logger,
  ) {
    this.logger = logger.child('desktop');
  }

  readonly handlers: CommandHandlers = {
    OpenInBrowser: async ({ Url }) => {
      const url = webUrl(Url);
      this.logger.info('opening a web page', { url: url.origin + url.pathname });
      await this.browser.open(url.href);
    },
    ToggleFullscreen: async ({ enabled }) => {
      if (!this.window.setFullscreen) {
        this.logger.debug('fullscreen is handled by the UI itself', { window: this.window.kind, enabled });
        return;
      }
      await this.window.setFullscreen(enabled);
      this.logger.info('fullscreen switched', { window: this.window.kind, enabled });
    },
  };
}

/** The URL when it is an absolute http(s) URL; anything else (file:, javascript:, custom schemes) is refused. */
function webUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CommandError('InvalidParameters', `"${text.slice(0, 200)}" is not a URL: OpenInBrowser opens http and https addresses only.`);
  }
  if (!WEB_PROTOCOLS.has(url.protocol)) {
    throw new CommandError('InvalidParameters', `OpenInBrowser opens http and https addresses only, not ${url.protocol} ones.`);
  }
  return url;
}
