// The app window: a chromeless window of the machine's Chromium-family browser on the service's UI, driven
// over the DevTools pipe (the host bridge, bringing it to the front, fullscreen). Closing it leaves the
// service running; `show()` opens it again. Without such a browser the system browser opens the UI instead.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { DesktopAppLog, DesktopWindow } from '@keyframe/core/host';
import { browserArguments } from './browser-arguments.js';
import type { AppBrowser } from './browser-discovery.js';
import { DevToolsPipe } from './devtools-pipe.js';
import { BRIDGE_BINDING, hostBridgeScript } from './host-bridge-script.js';

export interface AppWindowOptions {
  /** The browser to use, looked for at each opening (undefined: none on this machine). */
  findBrowser(): AppBrowser | undefined;
  /** The window's own browser profile. */
  profileFolder: string;
  openInSystemBrowser(url: string): Promise<void>;
}

/** What the window shows and where its pages' messages go: known once the service listens. */
export interface AppWindowTarget {
  url: string;
  dispatch(frame: string): Promise<void>;
  log: DesktopAppLog;
}

const PAGE_WAIT_MS = 15_000;
const BLANK_PAGE = 'data:text/html,';
const CLOSE_WAIT_MS = 5_000;

export class AppWindow implements DesktopWindow {
  readonly kind = 'app window';
  private target: AppWindowTarget | undefined;
  private open: Promise<OpenWindow | undefined> | undefined;
  private showWhenAttached = false;
  private showing: Promise<void> = Promise.resolve();

  constructor(private readonly options: AppWindowOptions) {}

  attach(target: AppWindowTarget): void {
    this.target = target;
    if (this.showWhenAttached) this.show().catch((error: unknown) => target.log.error('the app window did not open', { error }));
  }

  /** Brings the window to the front, or opens it when there is none (also after the user closed it). */
  show(): Promise<void> {
    // One at a time: two quick requests (the tray, a second launch) must not start two browsers.
    const shown = this.showing.then(() => this.showNow());
    this.showing = shown.catch(() => undefined);
    return shown;
  }

  private async showNow(): Promise<void> {
    const target = this.target;
    if (!target) return void (this.showWhenAttached = true);
    const current = await this.open?.catch(() => undefined);
    if (current && !current.closed) {
      await current.raise();
      target.log.info('app window brought to the front');
      return;
    }
    this.open = this.launch(target);
    await this.open;
  }

  async setFullscreen(enabled: boolean): Promise<void> {
    const current = await this.open?.catch(() => undefined);
    if (!current || current.closed) return;
    await current.setFullscreen(enabled);
  }

  /** Closes the window (the browser it runs in), if it is open. */
  async close(): Promise<void> {
    const current = await this.open?.catch(() => undefined);
    await current?.close();
  }

  /** Opens a window on `url` with no DevTools pipe and leaves it to the user: for a Keyframe running without a window. */
  async openDetached(url: string): Promise<string> {
    const browser = this.options.findBrowser();
    if (!browser) {
      await this.options.openInSystemBrowser(url);
      return 'the system browser (no Chromium-family browser was found)';
    }
    const child = spawn(
      browser.executable,
      browserArguments({ url, profileFolder: this.options.profileFolder, pipe: false, asRoot: isRoot() }),
      {
        detached: true,
        stdio: 'ignore',
      },
    );
    child.on('error', () => undefined);
    child.unref();
    return `an app window of ${browser.name}`;
  }

  private async launch(target: AppWindowTarget): Promise<OpenWindow | undefined> {
    const browser = this.options.findBrowser();
    if (!browser) {
      target.log.warn('no Chromium-family browser found (set KEYFRAME_BROWSER to choose one): the UI opens in the system browser', {
        url: target.url,
      });
      await this.options.openInSystemBrowser(target.url);
      return undefined;
    }
    // An empty page first, so the bridge is in place before the UI's first script runs (about:blank would make a
    // window with tabs and an address bar: Chromium does not take it for an app).
    const args = browserArguments({ url: BLANK_PAGE, profileFolder: this.options.profileFolder, pipe: true, asRoot: isRoot() });
    const child = spawn(browser.executable, args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    const pipe = new DevToolsPipe(child.stdio[3] as Writable, child.stdio[4] as Readable);
    child.on('error', (error) => target.log.error('the app window could not be started', { browser: browser.executable, error }));
    try {
      const window = await OpenWindow.connect(child, pipe, target);
      target.log.info('app window opened', { browser: browser.executable, url: target.url });
      return window;
    } catch (error) {
      child.kill('SIGKILL');
      throw new Error(`The app window (${browser.executable}) did not open: ${(error as Error).message}`, { cause: error });
    }
  }
}

/** One running browser with the UI's page, attached over the pipe. */
class OpenWindow {
  closed = false;

  private constructor(
    private readonly child: ChildProcess,
    private readonly pipe: DevToolsPipe,
    private readonly targetId: string,
    private readonly sessionId: string,
  ) {}

  static async connect(child: ChildProcess, pipe: DevToolsPipe, target: AppWindowTarget): Promise<OpenWindow> {
    const targetId = await pageTarget(pipe);
    const { sessionId } = (await pipe.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    const window = new OpenWindow(child, pipe, targetId, sessionId);
    const origin = new URL(target.url).origin;
    window.bridgeTo(origin, target);
    await pipe.send('Runtime.enable', {}, sessionId);
    await pipe.send('Page.enable', {}, sessionId);
    await pipe.send('Runtime.addBinding', { name: BRIDGE_BINDING }, sessionId);
    await pipe.send('Page.addScriptToEvaluateOnNewDocument', { source: hostBridgeScript(origin) }, sessionId);
    await pipe.send('Page.navigate', { url: target.url }, sessionId);
    pipe.onClose(() => {
      if (window.closed) return;
      window.closed = true;
      target.log.info('app window closed: Keyframe keeps running');
    });
    child.on('exit', () => (window.closed = true));
    return window;
  }

  async raise(): Promise<void> {
    await this.pipe.send('Target.activateTarget', { targetId: this.targetId });
    await this.pipe.send('Page.bringToFront', {}, this.sessionId);
  }

  async setFullscreen(enabled: boolean): Promise<void> {
    const { windowId } = (await this.pipe.send('Browser.getWindowForTarget', { targetId: this.targetId })) as { windowId: number };
    await this.pipe.send('Browser.setWindowBounds', { windowId, bounds: { windowState: enabled ? 'fullscreen' : 'normal' } });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.pipe.send('Browser.close').catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), CLOSE_WAIT_MS);
    if (this.child.exitCode === null && this.child.signalCode === null) await exited;
    clearTimeout(timer);
  }

  /** Binding calls go to the service, from pages of its origin only (the execution contexts say whose they are). */
  private bridgeTo(origin: string, target: AppWindowTarget): void {
    const origins = new Map<number, string>();
    let announced = false;
    this.pipe.on('Runtime.executionContextCreated', ({ context }) => {
      const { id, origin: contextOrigin } = context as { id: number; origin: string };
      origins.set(id, contextOrigin);
    });
    this.pipe.on('Runtime.executionContextDestroyed', ({ executionContextId }) => origins.delete(executionContextId as number));
    this.pipe.on('Runtime.executionContextsCleared', () => origins.clear());
    this.pipe.on('Runtime.bindingCalled', ({ name, payload, executionContextId }, sessionId) => {
      if (sessionId !== this.sessionId || name !== BRIDGE_BINDING || typeof payload !== 'string') return;
      const from = origins.get(executionContextId as number);
      if (from !== origin) return target.log.warn('a message from a page of another origin was refused', { origin: from });
      if (!announced) target.log.info('the app window sends its commands through window.external.sendMessage');
      announced = true;
      void target.dispatch(payload);
    });
  }
}

/** The id of the window's page, once the browser has made it. */
async function pageTarget(pipe: DevToolsPipe): Promise<string> {
  const deadline = Date.now() + PAGE_WAIT_MS;
  while (Date.now() < deadline) {
    const { targetInfos } = (await pipe.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string }[] };
    const page = targetInfos.find(({ type }) => type === 'page');
    if (page) return page.targetId;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no page within ${PAGE_WAIT_MS / 1000} s`);
}

/** Chromium needs `--no-sandbox` then (see browser-arguments.ts). */
const isRoot = () => process.getuid?.() === 0;
