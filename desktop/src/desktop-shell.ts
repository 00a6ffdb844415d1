// The desktop shell around a running service: the tray icon, the OS notifications and the start-with-the-computer
// entry. The app (`keyframe --app`) starts it once the service runs and stops it before the service stops.
import type { KeyframeService } from '@keyframe/core/host';

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

export async function startDesktopShell(options: DesktopShellOptions): Promise<DesktopShell> {
  void options;
  return { stop: async () => {} };
}
