// `keyframe --app` for real, on an Xvfb screen: a Chromium app window on the UI whose commands come through
// window.external.sendMessage, one service per data folder (a second launch raises the first one's window and
// exits), and no window for a port that is not Keyframe's. Skipped without Xvfb, xwininfo, ffmpeg or Chromium.
import { expect } from 'chai';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { WebSocket } from 'ws';
import { findAppBrowser } from '@keyframe/desktop';
import { createTempFolder, type TempFolder } from '@keyframe/integration-testkit';
import { SCREENSHOT_FOLDER } from '../kit/browser.js';
import { onPath, startXvfb } from '../kit/virtual-desktop.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const KEYFRAME = path.join(path.dirname(require.resolve('@keyframe/core/package.json')), 'dist', 'bundle', 'keyframe.mjs');

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
const tools = process.platform === 'linux' ? { xvfb: onPath('Xvfb'), xwininfo: onPath('xwininfo'), ffmpeg: onPath('ffmpeg') } : {};
const browser = findAppBrowser({ platform: process.platform, env: process.env, homeFolder: os.homedir(), isExecutable });
const missing = Object.entries({ ...tools, chromium: browser }).find(([, found]) => !found)?.[0];
const title = missing ? `desktop: keyframe --app (skipped: ${missing} is not installed)` : 'desktop: keyframe --app on an Xvfb screen';

/** A `keyframe` process with everything it printed. */
class KeyframeRun {
  output = '';
  readonly exited: Promise<number | null>;
  constructor(readonly child: ChildProcess) {
    const keep = (chunk: Buffer) => void (this.output += chunk.toString());
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', resolve));
  }

  async waitFor(pattern: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> {
    return waitUntil(
      async () => pattern.exec(this.output) ?? undefined,
      timeoutMs,
      () => `${pattern} not printed:\n${this.output}`,
    );
  }
}

async function waitUntil<T>(check: () => Promise<T | undefined>, timeoutMs: number, failure: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(failure());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe(title, function () {
  this.timeout(60_000);
  let screen: { display: string; process: ChildProcess } | undefined;
  let data: TempFolder;
  const runs: KeyframeRun[] = [];
  let first: KeyframeRun;
  let url: string;

  const keyframe = (dataFolder: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) => {
    const home = path.join(dataFolder, 'home');
    const child = spawn(process.execPath, [KEYFRAME, '--data-dir', dataFolder, '--port', '0', '--legacy-port', 'off', ...args], {
      env: {
        ...process.env,
        DISPLAY: screen!.display,
        HOME: home,
        KEYFRAME_GAME_PROCESS_ROOT: dataFolder,
        KEYFRAME_REFERENCE_MEDIA_PORT: 'off',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = new KeyframeRun(child);
    runs.push(started);
    return started;
  };
  const log = () => readFile(path.join(data.path, 'logs', 'keyframe.log'), 'utf8').catch(() => '');
  const logLines = async (message: string) => (await log()).split('\n').filter((line) => line.includes(`"message":"${message}"`)).length;
  /** The app windows on this suite's screen: titled by the UI alone (a window with tabs adds " - Chromium"), of the class Keyframe gives them. */
  const appWindows = async () => {
    const { stdout } = await run(tools.xwininfo!, ['-root', '-tree'], { env: { ...process.env, DISPLAY: screen!.display } });
    return stdout.split('\n').filter((line) => /^\s*0x[0-9a-f]+ "Keyframe": \(".*" "Keyframe"\)/.test(line));
  };

  before(async function () {
    if (missing) this.skip();
    screen = await startXvfb(tools.xvfb!);
    data = await createTempFolder();
  });
  after(async () => {
    for (const started of runs) if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGTERM');
    await Promise.all(runs.map((started) => started.exited));
    screen?.process.kill();
    await data?.remove();
  });

  it('opens a Chromium app window on the UI, and the page sends its commands through window.external.sendMessage', async () => {
    first = keyframe(data.path, ['--app']);
    url = (await first.waitFor(/UI:\s+(http:\/\/\S+)/))[1]!;
    await waitUntil(
      async () => ((await logLines('the app window sends its commands through window.external.sendMessage')) > 0 ? true : undefined),
      30_000,
      () => `no command came through the bridge:\n${first.output}`,
    );
    // The UI's first command through the bridge (NewConnection) is answered on its socket: it shows its pages.
    const windows = await waitUntil(
      async () => ((await appWindows()).length > 0 ? appWindows() : undefined),
      10_000,
      () => 'no Chromium window on the screen',
    );
    expect(windows).to.have.length(1);

    // What the screen shows: not one colour (the window draws the UI).
    await mkdir(SCREENSHOT_FOLDER, { recursive: true });
    const screenshot = path.join(SCREENSHOT_FOLDER, 'desktop-app-window.png');
    const grab = ['-v', 'error', '-y', '-f', 'x11grab', '-video_size', '1280x720', '-i', screen!.display, '-frames:v', '1'];
    await run(tools.ffmpeg!, [...grab, screenshot]);
    const { stdout } = await run(
      tools.ffmpeg!,
      ['-v', 'error', '-i', screenshot, '-vf', 'scale=64:36', '-pix_fmt', 'gray', '-f', 'rawvideo', '-'],
      {
        encoding: 'buffer',
      },
    );
    const shades = new Set(stdout as unknown as Buffer);
    expect(shades.size, `the screen is nearly one colour (${screenshot})`).to.be.greaterThan(8);
  });

  it('a second keyframe --app exits 0 within seconds, starts no second service and brings the first one’s window to the front', async () => {
    const lockBefore = await readFile(path.join(data.path, 'keyframe.lock'), 'utf8');
    const startedAt = Date.now();
    const second = keyframe(data.path, ['--app']);
    expect(await second.exited).to.equal(0);
    expect(Date.now() - startedAt).to.be.below(10_000);
    expect(second.output).to.match(new RegExp(`already running on .* \\(pid ${first.child.pid}\\): its window was brought to the front`));
    expect(await readFile(path.join(data.path, 'keyframe.lock'), 'utf8')).to.equal(lockBefore);
    expect(await logLines('starting')).to.equal(1);
    expect(await logLines('app window brought to the front')).to.equal(1);
    expect(await appWindows()).to.have.length(1);
  });

  it('a web page cannot ask for the window: another origin, or no proof, is refused', async () => {
    const target = new URL('api/instance/show-window', url);
    const body = JSON.stringify({ nonce: '0'.repeat(32), proof: '0'.repeat(64) });
    const fromPage = await fetch(target, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', Origin: 'https://example.com' },
    });
    expect(fromPage.status).to.equal(403);
    const noProof = await fetch(target, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
    expect(noProof.status).to.equal(403);
    expect(await logLines('app window brought to the front')).to.equal(1);
  });

  it('ToggleFullscreen is handed to the app window (Xvfb has no window manager to show it: the browser’s answer is the evidence)', async () => {
    const socket = new WebSocket(url.replace(/^http/, 'ws'));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    try {
      for (const enabled of [true, false]) socket.send(JSON.stringify({ Method: 'ToggleFullscreen', Parameters: { enabled } }));
      // Logged once the browser accepted Browser.setWindowBounds; a browser tab would log nothing at info level.
      const switched = async () =>
        (await log()).split('\n').filter((line) => line.includes('"message":"fullscreen switched","fields":{"window":"app window"'));
      await waitUntil(
        async () => ((await switched()).length === 2 ? true : undefined),
        10_000,
        () => 'fullscreen was not switched',
      );
    } finally {
      socket.close();
    }
  });

  it('closing the window leaves the service running; the next launch opens a new window on it', async () => {
    // What the window manager's close button does to the last window: the browser ends.
    const { stdout } = await run('ps', ['-o', 'pid=,comm=', '--ppid', String(first.child.pid)]);
    const browserPid = stdout
      .split('\n')
      .find((line) => /chrom/.test(line))
      ?.trim()
      .split(/\s+/)[0];
    expect(browserPid, stdout).to.be.a('string');
    process.kill(Number(browserPid), 'SIGTERM');
    await waitUntil(
      async () => ((await logLines('app window closed: Keyframe keeps running')) > 0 ? true : undefined),
      10_000,
      () => 'not closed',
    );
    expect(await appWindows()).to.deep.equal([]);
    const again = keyframe(data.path, ['--app']);
    expect(await again.exited).to.equal(0);
    expect(await logLines('app window opened')).to.equal(2);
    await waitUntil(
      async () => ((await appWindows()).length === 1 ? true : undefined),
      10_000,
      () => 'no window again',
    );
  });

  it('quitting stops the service, closes the window and removes the lock', async () => {
    first.child.kill('SIGTERM');
    expect(await first.exited).to.equal(0);
    expect(await appWindows()).to.deep.equal([]);
    expect(await readFile(path.join(data.path, 'keyframe.lock'), 'utf8').catch(() => 'gone')).to.equal('gone');
  });

  it('keyframe --app while a headless keyframe runs on the folder: a window opens on that one, and no second service', async () => {
    const folder = await createTempFolder();
    try {
      const headless = keyframe(folder.path);
      const headlessUrl = (await headless.waitFor(/UI:\s+(http:\/\/\S+)/))[1]!;
      // A stand-in browser that notes how it was started, so no window outlives the test.
      const browserLog = path.join(folder.path, 'browser-arguments.txt');
      const fakeBrowser = path.join(folder.path, 'fake-browser');
      await writeFile(fakeBrowser, `#!/bin/sh\necho "$@" > '${browserLog}'\n`, { mode: 0o755 });
      const launch = keyframe(folder.path, ['--app'], { KEYFRAME_BROWSER: fakeBrowser });
      expect(await launch.exited).to.equal(0);
      expect(launch.output).to.include(`(pid ${headless.child.pid}) without a window: opened an app window of fake-browser on it`);
      const argumentsGiven = await waitUntil(
        () => readFile(browserLog, 'utf8').catch(() => undefined),
        5_000,
        () => 'the browser was not started',
      );
      expect(argumentsGiven).to.include(`--app=${headlessUrl}`);
      expect(argumentsGiven).to.not.include('--remote-debugging');
      headless.child.kill('SIGTERM');
      expect(await headless.exited).to.equal(0);
    } finally {
      await folder.remove();
    }
  });

  describe('a port that is not Keyframe’s', () => {
    let other: Server;
    let folder: TempFolder;
    let port: number;
    before(async function () {
      if (missing) this.skip();
      folder = await createTempFolder();
      other = createServer((_request, response) => response.end('some other program'));
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
      port = (other.address() as { port: number }).port;
    });
    after(async () => {
      other?.close();
      await folder?.remove();
    });

    it('the lock names a port another program answers: a clear message, exit 1, no window', async () => {
      const lock = {
        pid: process.pid,
        processStart: null,
        startedAt: new Date().toISOString(),
        hostname: os.hostname(),
        port,
        instanceId: 'x',
      };
      await writeFile(path.join(folder.path, 'keyframe.lock'), JSON.stringify(lock));
      await writeFile(path.join(folder.path, 'instance-secret'), `${'ab'.repeat(32)}\n`, { mode: 0o600 });
      const launch = keyframe(folder.path, ['--app']);
      expect(await launch.exited).to.equal(1);
      expect(launch.output).to.include(
        `says Keyframe runs as pid ${process.pid} on port ${port}, but the program listening there is not that Keyframe`,
      );
      expect(await appWindows()).to.deep.equal([]);
    });

    it('no Keyframe on the folder but its port taken by another program: a clear message, exit 1', async () => {
      const launch = new KeyframeRun(
        spawn(
          process.execPath,
          [KEYFRAME, '--app', '--data-dir', path.join(folder.path, 'fresh'), '--port', String(port), '--legacy-port', 'off'],
          {
            env: { ...process.env, DISPLAY: screen!.display, HOME: path.join(folder.path, 'home'), KEYFRAME_REFERENCE_MEDIA_PORT: 'off' },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        ),
      );
      runs.push(launch);
      expect(await launch.exited).to.equal(1);
      expect(launch.output).to.include(`Port ${port} is in use by another program (no Keyframe runs on`);
    });
  });
});
