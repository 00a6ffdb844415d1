// What `keyframe --app` loads from the desktop layer (@keyframe/desktop: the app window, the tray). That
// package lies above core and implements this contract; core names only the module, loaded by a dynamic
// import, so `keyframe` without --app never loads it and core never depends on it.
import type { DesktopWindow } from '../platform/desktop-window.js';
import { systemDesktopTools } from '../platform/desktop-tools.js';
import { WebBrowser } from '../platform/web-browser.js';
import { RunningInstance } from '../transport/running-instance.js';
import type { KeyframeService } from './keyframe-service.js';

export const DESKTOP_APP_MODULE = '@keyframe/desktop';

/** Where the desktop layer's lines go: the service's log once it runs. */
export interface DesktopAppLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface DesktopAppOptions {
  dataFolder: string;
  /** Opens a page in the user's default browser: the fallback when the machine has no Chromium-family browser. */
  openInSystemBrowser(url: string): Promise<void>;
}

export interface DesktopAppControls {
  log: DesktopAppLog;
  /** Stops the service cleanly (a recording is finalised), closes the window and exits. */
  quit(): void;
  /** Started with the computer (`--minimised`): the tray only, no window until the user opens it. */
  startedMinimised: boolean;
}

export interface DesktopApp {
  /** The window the service acts on (fullscreen, and showing it when a second launch asks): given to `KeyframeService.start`. */
  readonly window: DesktopWindow;
  /** Once the service answers: opens the window (unless minimised) and the tray. */
  start(service: KeyframeService, controls: DesktopAppControls): Promise<void>;
  /** Opens a window on a Keyframe that runs without one (a headless `keyframe`); says what it opened. */
  openWindowOn(url: string): Promise<string>;
  /** Closes the tray and the window; before the service stops. */
  stop(): Promise<void>;
}

export type CreateDesktopApp = (options: DesktopAppOptions) => DesktopApp;

/** Loads the desktop layer; a clear error when it is not installed beside core. */
export async function loadDesktopApp(options: DesktopAppOptions): Promise<DesktopApp> {
  let module: { createDesktopApp?: unknown };
  try {
    module = (await import(DESKTOP_APP_MODULE)) as { createDesktopApp?: unknown };
  } catch (error) {
    throw new Error(`--app needs the desktop layer (${DESKTOP_APP_MODULE}), which could not be loaded: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (typeof module.createDesktopApp !== 'function') throw new Error(`${DESKTOP_APP_MODULE} does not export createDesktopApp`);
  return (module.createDesktopApp as CreateDesktopApp)(options);
}

/**
 * `--app` while a Keyframe already runs on the data folder (its identity checked: `RunningInstance.find`): its window
 * comes to the front, or opens on it when it runs headless, and this launch ends (true). False when none runs.
 */
export async function handOverToRunningKeyframe(dataFolder: string, desktop: DesktopApp): Promise<boolean> {
  const running = await RunningInstance.find(dataFolder);
  if (!running) return false;
  const which = `Keyframe is already running on ${dataFolder} (pid ${running.owner.pid})`;
  if (await running.showWindow()) console.log(`${which}: its window was brought to the front.`);
  else console.log(`${which} without a window: opened ${await desktop.openWindowOn(running.url)} on it.`);
  return true;
}

/** Opens pages in the user's default browser (xdg-open, open, the Windows URL handler). */
export function systemBrowser(): (url: string) => Promise<void> {
  const browser = new WebBrowser(systemDesktopTools());
  return (url) => browser.open(url);
}
