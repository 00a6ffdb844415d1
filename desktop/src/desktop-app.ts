// `keyframe --app`: the service's app window, and the tray around it (core/src/app/desktop-app.ts is the contract).
import { accessSync, constants, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CreateDesktopApp, DesktopApp, DesktopAppControls, DesktopAppOptions, KeyframeService } from '@keyframe/core/host';
import { findAppBrowser } from './window/browser-discovery.js';
import { AppWindow } from './window/app-window.js';
import { startDesktopShell, type DesktopShell } from './desktop-shell.js';

/** The app window's browser profile, in the data folder. */
const WINDOW_PROFILE_FOLDER = 'app-window-profile';

class KeyframeDesktopApp implements DesktopApp {
  readonly window: AppWindow;
  private shell: DesktopShell | undefined;

  constructor(options: DesktopAppOptions) {
    this.window = new AppWindow({
      findBrowser: () => findAppBrowser({ platform: process.platform, env: process.env, homeFolder: os.homedir(), isExecutable }),
      profileFolder: path.join(options.dataFolder, WINDOW_PROFILE_FOLDER),
      openInSystemBrowser: options.openInSystemBrowser,
    });
  }

  async start(service: KeyframeService, { log, quit, startedMinimised }: DesktopAppControls): Promise<void> {
    this.window.attach({ url: service.url, dispatch: (frame) => service.dispatch(frame), log });
    if (startedMinimised) log.info('started minimised: the window opens from the tray');
    // A window that does not open is logged: the service keeps running (and a second launch tries again).
    else await this.window.show().catch((error: unknown) => log.error('the app window did not open', { error }));
    // Without a tray (no notification area on this desktop) the window and the service still run.
    this.shell = await startDesktopShell({
      service,
      openWindow: () => this.window.show(),
      quit: async () => quit(),
      startedMinimised,
    }).catch((error: unknown) => void log.error('the tray and notifications did not start', { error }));
  }

  openWindowOn(url: string): Promise<string> {
    return this.window.openDetached(url);
  }

  async stop(): Promise<void> {
    await this.shell?.stop();
    await this.window.close();
  }
}

export const createDesktopApp: CreateDesktopApp = (options) => new KeyframeDesktopApp(options);

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
