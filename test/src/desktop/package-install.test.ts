// The Linux package as a user gets it: `npm run package`'s install root, installed by its install.sh into a home
// folder of the test's own, started from its menu entry's Exec line, stopped, and removed by uninstall.sh, which
// leaves the user's own files (and settings and videos) where they are.
import 'reflect-metadata';
import { expect } from 'chai';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createTempFolder, ProtocolClient, type TempFolder } from '@keyframe/integration-testkit';

const run = promisify(execFile);
const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));
const VERSION = (JSON.parse(await readFile(path.join(REPOSITORY, 'core', 'package.json'), 'utf8')) as { version: string }).version;
const ICON_SIZES = [48, 128, 256];

/** A Desktop Entry file's keys of its [Desktop Entry] group. */
function desktopEntryKeys(text: string): Map<string, string> {
  const lines = text.split('\n');
  expect(lines[0]).to.equal('[Desktop Entry]');
  return new Map(
    lines
      .slice(1)
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/** The Exec key as a launcher reads it (Desktop Entry specification): value escapes, then quoted arguments; no field code here. */
function execArguments(exec: string): string[] {
  const value = exec.replace(/\\(.)/g, (_escape, character: string) => ({ s: ' ', n: '\n', t: '\t', r: '\r' })[character] ?? character);
  expect(value, 'a field code').to.not.match(/%[a-zA-Z]/);
  const argv: string[] = [];
  for (const [, quoted, plain] of value.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g))
    argv.push(quoted !== undefined ? quoted.replace(/\\(["`$\\])/g, '$1') : plain!.replace(/%%/g, '%'));
  return argv;
}

async function waitFor<T>(check: () => T | undefined, failure: () => string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let found = check(); ; found = check()) {
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(failure());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const pngSize = (png: Buffer) => {
  expect(png.subarray(1, 4).toString()).to.equal('PNG');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
};

describe('desktop: the Linux package, installed, launched from its menu entry, uninstalled', function () {
  this.timeout(60_000);
  let work: TempFolder;
  let home: string;
  let tree: string;
  let service: ChildProcess | undefined;
  const env = () => {
    const variables: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    for (const name of Object.keys(variables))
      if (/^(XDG_|KEYFRAME_|DBUS_SESSION_BUS_ADDRESS$|DISPLAY$|WAYLAND_DISPLAY$)/.test(name)) delete variables[name];
    return variables;
  };
  const local = (...parts: string[]) => path.join(home, '.local', 'share', ...parts);
  const root = () => local('keyframe', 'app');
  const menuEntry = () => local('applications', 'keyframe.desktop');
  const icon = (size: number) => local('icons', 'hicolor', `${size}x${size}`, 'apps', 'keyframe.png');

  before(async function () {
    if (process.platform !== 'linux') this.skip();
    work = await createTempFolder();
    home = path.join(work.path, 'home');
    await run(process.execPath, [
      path.join(REPOSITORY, 'scripts', 'package-linux.mjs'),
      '--no-tarball',
      '--out',
      path.join(work.path, 'packages'),
    ]);
    tree = path.join(work.path, 'packages', `keyframe-${VERSION}-linux-${process.arch}`);
  });
  after(async () => {
    // The launcher passes SIGTERM on to the service it runs (SIGKILL would leave that one running).
    if (service && service.exitCode === null && service.signalCode === null) {
      const exited = new Promise((resolve) => service!.once('exit', resolve));
      service.kill('SIGTERM');
      await exited;
    }
    await work?.remove();
  });

  it('install.sh copies the install root and writes a menu entry and icons beside the user’s own files', async () => {
    await mkdir(local('applications'), { recursive: true });
    await writeFile(local('applications', 'mine.desktop'), '[Desktop Entry]\nName=Mine\n');
    const { stdout } = await run(path.join(tree, 'install.sh'), [], { env: env() });
    expect(stdout).to.include(`Keyframe ${VERSION} is installed in ${root()}`);

    const keys = desktopEntryKeys(await readFile(menuEntry(), 'utf8'));
    expect(Object.fromEntries(keys)).to.deep.include({
      Type: 'Application',
      Name: 'Keyframe',
      Icon: 'keyframe',
      Terminal: 'false',
      StartupWMClass: 'Keyframe',
      Categories: 'AudioVideo;Recorder;Game;',
    });
    expect(execArguments(keys.get('Exec')!)).to.deep.equal([path.join(root(), 'keyframe')]);
    for (const size of ICON_SIZES) expect(pngSize(await readFile(icon(size)))).to.deep.equal([size, size]);
    expect(await readFile(local('applications', 'mine.desktop'), 'utf8')).to.include('Name=Mine');
  });

  /** The menu entry's Exec line, run as a desktop runs it, with `extra` after it; resolves once the UI's address is printed. */
  async function launchFromMenu(
    extra: string[],
    variables: NodeJS.ProcessEnv = {},
  ): Promise<{ url: string; output: () => string; exited: Promise<number | null> }> {
    const exec = execArguments(desktopEntryKeys(await readFile(menuEntry(), 'utf8')).get('Exec')!);
    const child = spawn(exec[0]!, [...exec.slice(1), ...extra], { env: { ...env(), ...variables }, stdio: ['ignore', 'pipe', 'pipe'] });
    service = child;
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const url = await waitFor(
      () => /UI:\s+(http:\/\/\S+)/.exec(output)?.[1],
      () => `the installed Keyframe did not start:\n${output}`,
    );
    return { url, output: () => output, exited };
  }
  const serviceOptions = () => [
    '--data-dir',
    path.join(work.path, 'data'),
    '--port',
    '0',
    '--legacy-port',
    'off',
    '--reference-media-port',
    'off',
  ];

  it('its Exec line starts the installed service (headless), which answers with its version and stops on SIGTERM', async () => {
    const { url, output, exited } = await launchFromMenu(['--headless', '--', ...serviceOptions()]);
    expect(output())
      .to.include(`starting version ${VERSION}`)
      .and.include(`Data:      ${path.join(work.path, 'data')}`);

    const page = await fetch(url);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.match(/<div id="root">/);
    const client = await ProtocolClient.connect(url);
    client.send('NewConnection');
    expect((await client.next('AppVersion')).version).to.equal(VERSION);
    await client.close();

    service!.kill('SIGTERM');
    expect(await exited).to.equal(0);
    expect(output()).to.include('SIGTERM: stopping Keyframe');
  });

  it('its Exec line alone is the app: the browser is asked for an app window, and start with the computer runs the installed launcher', async () => {
    // A stand-in browser that notes how it was started; no session bus, so no tray on the machine's desktop.
    const browserLog = path.join(work.path, 'browser-arguments.txt');
    const browser = path.join(work.path, 'stand-in-browser');
    await writeFile(browser, `#!/bin/sh\necho "$@" > '${browserLog}'\n`, { mode: 0o755 });
    const { url, exited } = await launchFromMenu(['--', ...serviceOptions()], { KEYFRAME_BROWSER: browser });
    const browserArguments = await waitFor(
      () => (existsSync(browserLog) ? readFileSync(browserLog, 'utf8') : undefined),
      () => 'the browser was not started',
    );
    // An app window (the page comes through the DevTools pipe: app-window.test.ts follows it in a real Chromium).
    expect(browserArguments)
      .to.match(/--app=\S/)
      .and.include('--class=Keyframe')
      .and.include('--remote-debugging-pipe');
    expect(browserArguments).to.include(`--user-data-dir=${path.join(work.path, 'data')}`);

    // Start with the computer, switched on as a frontend does: the entry runs the installed launcher, minimised.
    const frontend = await ProtocolClient.connect(url);
    frontend.send('UpdateSettings', { runOnStartup: true });
    await frontend.next('Settings', (settings) => settings.runOnStartup);
    await frontend.close();
    const autostart = path.join(home, '.config', 'autostart', 'keyframe.desktop');
    const entry = await waitFor(
      () => (existsSync(autostart) && readFileSync(autostart, 'utf8').includes('\nExec=') ? readFileSync(autostart, 'utf8') : undefined),
      () => 'no autostart entry',
    );
    expect(execArguments(desktopEntryKeys(entry).get('Exec')!)).to.deep.equal([
      path.join(root(), 'keyframe'),
      '--root',
      root(),
      '--',
      '--data-dir',
      path.join(work.path, 'data'),
      '--minimised',
    ]);
    service!.kill('SIGTERM');
    expect(await exited).to.equal(0);
  });

  it('uninstall.sh removes what install.sh and the app wrote, and nothing of the user’s', async () => {
    const autostart = path.join(home, '.config', 'autostart', 'keyframe.desktop');
    expect(existsSync(autostart), 'the entry the app wrote').to.equal(true);
    await writeFile(local('icons', 'hicolor', '48x48', 'apps', 'mine.png'), 'not an icon of Keyframe');
    await mkdir(path.join(home, '.config', 'keyframe'), { recursive: true });
    await writeFile(path.join(home, '.config', 'keyframe', 'settings.json'), '{}');

    const { stdout } = await run(path.join(root(), 'uninstall.sh'), [], { env: env() });
    expect(stdout).to.include(`Your settings were kept in ${path.join(home, '.config', 'keyframe')}`);
    for (const gone of [root(), menuEntry(), autostart, ...ICON_SIZES.map(icon)]) expect(existsSync(gone), gone).to.equal(false);
    for (const kept of [
      local('applications', 'mine.desktop'),
      local('icons', 'hicolor', '48x48', 'apps', 'mine.png'),
      path.join(home, '.config', 'keyframe', 'settings.json'),
    ])
      expect(existsSync(kept), kept).to.equal(true);
  });
});
