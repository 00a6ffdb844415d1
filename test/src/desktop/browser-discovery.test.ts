// Which browser opens the app window on each OS, from fake machines: the planning function sees only what
// `BrowserMachine` tells it.
import { expect } from 'chai';
import { findAppBrowser, type BrowserMachine } from '@keyframe/desktop';

const machine = (platform: NodeJS.Platform, executables: string[], env: NodeJS.ProcessEnv = {}): BrowserMachine => ({
  platform,
  env,
  homeFolder: platform === 'darwin' ? '/Users/ana' : '/home/ana',
  isExecutable: (file) => executables.includes(file),
});

describe('desktop: the app window’s browser', () => {
  it('Windows: Edge where it is installed (Program Files (x86), Program Files, the user’s folder), else Chrome', () => {
    const env = {
      'ProgramFiles(x86)': 'C:\\Program Files (x86)',
      ProgramFiles: 'C:\\Program Files',
      LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local',
    };
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    const chrome = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
    const userEdge = 'C:\\Users\\ana\\AppData\\Local\\Microsoft\\Edge\\Application\\msedge.exe';
    expect(findAppBrowser(machine('win32', [chrome, edge], env))).to.deep.equal({ name: 'Microsoft Edge', executable: edge });
    expect(findAppBrowser(machine('win32', [chrome, userEdge], env))).to.deep.equal({ name: 'Microsoft Edge', executable: userEdge });
    expect(findAppBrowser(machine('win32', [chrome], env))).to.deep.equal({ name: 'Google Chrome', executable: chrome });
    expect(findAppBrowser(machine('win32', [], env))).to.equal(undefined);
  });

  it('macOS: the Chrome, Chromium or Edge .app bundle in /Applications or ~/Applications', () => {
    const chromium = '/Users/ana/Applications/Chromium.app/Contents/MacOS/Chromium';
    const edge = '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge';
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findAppBrowser(machine('darwin', [edge, chromium]))).to.deep.equal({ name: 'Chromium', executable: chromium });
    expect(findAppBrowser(machine('darwin', [edge, chrome]))?.name).to.equal('Google Chrome');
    expect(findAppBrowser(machine('darwin', [edge]))?.executable).to.equal(edge);
    expect(findAppBrowser(machine('darwin', ['/usr/bin/chromium']))).to.equal(undefined);
  });

  it('Linux: chromium, chromium-browser, google-chrome(-stable) or microsoft-edge on PATH, in that order', () => {
    const env = { PATH: '/home/ana/bin:/usr/local/bin:/usr/bin' };
    expect(findAppBrowser(machine('linux', ['/usr/bin/google-chrome-stable', '/usr/local/bin/chromium-browser'], env))).to.deep.equal({
      name: 'chromium-browser',
      executable: '/usr/local/bin/chromium-browser',
    });
    expect(findAppBrowser(machine('linux', ['/usr/bin/microsoft-edge'], env))?.executable).to.equal('/usr/bin/microsoft-edge');
    // Not on PATH: not found (the system browser opens the UI then).
    expect(findAppBrowser(machine('linux', ['/opt/google/chrome/chrome'], env))).to.equal(undefined);
  });

  it('KEYFRAME_BROWSER overrides the search: a path, or a name on PATH; one that is not there finds none', () => {
    const env = { PATH: '/usr/bin', KEYFRAME_BROWSER: '/opt/brave/brave' };
    expect(findAppBrowser(machine('linux', ['/opt/brave/brave', '/usr/bin/chromium'], env))).to.deep.equal({
      name: 'brave',
      executable: '/opt/brave/brave',
    });
    expect(
      findAppBrowser(machine('linux', ['/usr/bin/vivaldi', '/usr/bin/chromium'], { PATH: '/usr/bin', KEYFRAME_BROWSER: 'vivaldi' }))
        ?.executable,
    ).to.equal('/usr/bin/vivaldi');
    expect(findAppBrowser(machine('linux', ['/usr/bin/chromium'], env))).to.equal(undefined);
  });
});
