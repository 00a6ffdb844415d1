// The desktop shell around a running service: the tray icon, the OS notifications and the start-with-the-computer
// entry. The app (`keyframe --app`) starts it once the service runs and stops it before the service stops.
import type { KeyframeService } from '@keyframe/core/host';
import type { Settings } from '@keyframe/core/protocol';
import { applyAutostart, type AutostartSettings } from './autostart/autostart.js';
import type { AutostartOutcome } from './autostart/autostart-outcome.js';
import { NotificationCenter } from './notifications/notification-center.js';
import { startPlatformNotifier } from './notifications/platform-notifier.js';
import { startPlatformTray } from './tray/platform-tray.js';
import { TrayController } from './tray/tray-controller.js';

export interface DesktopShellOptions {
  service: KeyframeService;
  /** Opens (or raises) the app window. */
  openWindow(): Promise<void>;
  /** Stops the service cleanly (a running recording is finalised), then exits the process. */
  quit(): Promise<void>;
  /** Started by the computer's autostart entry (`--minimised`): no window until the user asks for one. */
  startedMinimised: boolean;
}

export interface DesktopShell {
  /** Removes the tray icon and stops listening to the service. Safe to call twice. */
  stop(): Promise<void>;
}

const log = (message: string): void => void process.stderr.write(`keyframe: ${message}\n`);

export async function startDesktopShell({ service, openWindow, quit, startedMinimised }: DesktopShellOptions): Promise<DesktopShell> {
  let settings = service.settings;
  const notifications = new NotificationCenter(service.state, settings, log);
  const autostart = new AutostartEntry(service.options.dataFolder);
  const tray = new TrayController(
    service.state,
    settings,
    { dispatch: (frame) => service.dispatch(frame), openWindow, quit, openVideosFolder: () => service.openContentFolder() },
    log,
  );
  const unsubscribe = service.onEvent((event) => {
    tray.hear(event);
    notifications.hear(event);
    if (event.method === 'Settings') {
      settings = event.content;
      autostart.apply(settings);
    }
  });
  autostart.apply(settings);
  const [trayAdapter, platformNotifier] = await Promise.all([
    startPlatformTray({ onAction: (action) => tray.choose(action), log }),
    startPlatformNotifier(log),
  ]);
  if (platformNotifier) notifications.attach(platformNotifier);
  if (trayAdapter) tray.attach(trayAdapter);
  // Without a tray, a window is the only way back in to an app started minimised.
  else if (startedMinimised) await openWindow();

  let stopping: Promise<void> | undefined;
  return {
    stop: () =>
      (stopping ??= (async () => {
        unsubscribe();
        await Promise.allSettled([trayAdapter?.close(), notifications.close(), autostart.settled()]);
      })()),
  };
}

/**
 * Applies the autostart settings one change at a time, and only when they changed. At start an entry is only
 * written or rewritten (the install moved), never removed: another Keyframe on this account (a second install, a
 * checkout run with its own data folder) shares the entry's name, and its setting is not this one's to undo.
 */
class AutostartEntry {
  private applied: string | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly dataFolder: string) {}

  apply(settings: Readonly<Settings>): void {
    const wanted: AutostartSettings = { runOnStartup: settings.runOnStartup, startupWindowMode: settings.startupWindowMode };
    const key = JSON.stringify(wanted);
    const atStart = this.applied === undefined;
    if (key === this.applied) return;
    this.applied = key;
    if (atStart && !wanted.runOnStartup) return;
    const context = {
      env: process.env,
      platform: process.platform,
      nodePath: process.execPath,
      entryScript: process.argv[1] ?? '',
      dataFolder: this.dataFolder,
    };
    this.queue = this.queue.then(() =>
      applyAutostart(wanted, context).then(reportAutostart, (error: unknown) =>
        log(`start with the computer could not be set: ${(error as Error).message}`),
      ),
    );
  }

  settled(): Promise<void> {
    return this.queue;
  }
}

function reportAutostart(outcome: AutostartOutcome): void {
  if (outcome.kind === 'written') log(`start with the computer: ${outcome.entry} written`);
  else if (outcome.kind === 'removed') log(`start with the computer: ${outcome.entry} removed`);
  else if (outcome.kind === 'foreign') log(`start with the computer: ${outcome.entry} was not written by Keyframe, so it is left as it is`);
}
