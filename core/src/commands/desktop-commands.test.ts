import 'reflect-metadata';
import { expect } from 'chai';
import type { DesktopToolExit, DesktopTools } from '../platform/desktop-tools.js';
import type { DesktopWindow } from '../platform/desktop-window.js';
import { browserTab } from '../platform/desktop-window.js';
import { WebBrowser } from '../platform/web-browser.js';
import { Logger } from '../support/logger.js';
import { commandRejection } from '../testing/fixtures.js';
import { DesktopCommands } from './desktop-commands.js';

/** Tools that record what ran; `installed` exist and exit with `code`. */
function recordingTools(platform: NodeJS.Platform, installed: readonly string[], code = 0) {
  const runs: { command: string; args: readonly string[] }[] = [];
  const tools: DesktopTools = {
    platform,
    variables: {},
    run: (command, args): Promise<DesktopToolExit | undefined> => {
      runs.push({ command, args });
      return Promise.resolve(installed.includes(command) ? { code } : undefined);
    },
  };
  return { tools, runs };
}

const commandsWith = (tools: DesktopTools, window: DesktopWindow = browserTab) =>
  new DesktopCommands(new WebBrowser(tools), window, new Logger([]));

describe('DesktopCommands', () => {
  it('opens http and https pages with the platform opener', async () => {
    const linux = recordingTools('linux', ['xdg-open']);
    await commandsWith(linux.tools).handlers.OpenInBrowser!({ Url: 'https://example.org/notes?a=1&b=2' });
    expect(linux.runs).to.deep.equal([{ command: 'xdg-open', args: ['https://example.org/notes?a=1&b=2'] }]);
    const windows = recordingTools('win32', ['rundll32.exe']);
    await commandsWith(windows.tools).handlers.OpenInBrowser!({ Url: 'http://example.org/' });
    expect(windows.runs).to.deep.equal([{ command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', 'http://example.org/'] }]);
    const mac = recordingTools('darwin', ['open']);
    await commandsWith(mac.tools).handlers.OpenInBrowser!({ Url: 'https://example.org/' });
    expect(mac.runs).to.deep.equal([{ command: 'open', args: ['https://example.org/'] }]);
  });

  it('refuses every other scheme and non-URLs without running anything', async () => {
    const linux = recordingTools('linux', ['xdg-open']);
    const commands = commandsWith(linux.tools);
    for (const Url of ['file:///etc/passwd', 'javascript:alert(1)', 'ftp://example.org/', 'steam://run/730', '/home/user', 'example.org']) {
      const refusal = await commandRejection(commands.handlers.OpenInBrowser!({ Url }), 'InvalidParameters');
      expect(refusal.message, Url).to.match(/http and https/);
    }
    expect(linux.runs).to.deep.equal([]);
  });

  it('says what to install when no opener exists, and reports a failing one', async () => {
    const missing = await commandRejection(
      commandsWith(recordingTools('linux', []).tools).handlers.OpenInBrowser!({ Url: 'https://example.org/' }),
      'Unavailable',
    );
    expect(missing.message).to.include('xdg-utils');
    const failing = await commandRejection(
      commandsWith(recordingTools('linux', ['xdg-open'], 3).tools).handlers.OpenInBrowser!({ Url: 'https://example.org/' }),
      'Failed',
    );
    expect(failing.message).to.include('exit code 3');
  });

  it('hands ToggleFullscreen to the desktop window of an embedding shell', async () => {
    const switched: boolean[] = [];
    const shell: DesktopWindow = {
      kind: 'test shell',
      setFullscreen: (enabled) => {
        switched.push(enabled);
      },
    };
    const commands = commandsWith(recordingTools('linux', []).tools, shell);
    await commands.handlers.ToggleFullscreen!({ enabled: true });
    await commands.handlers.ToggleFullscreen!({ enabled: false });
    expect(switched).to.deep.equal([true, false]);
    await commandsWith(recordingTools('linux', []).tools).handlers.ToggleFullscreen!({ enabled: true });
  });
});
