// The notifier of this OS: D-Bus on Linux, a PowerShell toast on Windows, osascript on macOS.
import { runCommand } from '../os/command-plan.js';
import type { DesktopNotice, DesktopNotifier } from './desktop-notice.js';
import { startLinuxNotifier } from './linux-notifier.js';
import { macNotificationCommand } from './mac-notification.js';
import { KEYFRAME_APP_ID, POWERSHELL_APP_ID, windowsToastCommand } from './windows-toast.js';

export async function startPlatformNotifier(
  log: (message: string) => void,
  platform = process.platform,
): Promise<DesktopNotifier | undefined> {
  if (platform === 'win32') {
    // An installation registers Keyframe's AppUserModelID with its Start menu shortcut; a checkout has none.
    const appId = process.env.KEYFRAME_INSTALL_ROOT ? KEYFRAME_APP_ID : POWERSHELL_APP_ID;
    return commandNotifier((notice) => runCommand(windowsToastCommand(notice, appId)));
  }
  if (platform === 'darwin') return commandNotifier((notice) => runCommand(macNotificationCommand(notice)));
  return startLinuxNotifier(log);
}

const commandNotifier = (show: (notice: DesktopNotice) => Promise<unknown>): DesktopNotifier => ({
  notify: async (notice) => void (await show(notice)),
  close: async () => {},
});
