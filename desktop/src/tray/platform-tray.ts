// The tray adapter of this OS: a StatusNotifierItem on Linux, a NotifyIcon in a PowerShell child on Windows; none
// on macOS yet (docs/packaging.md).
import { startStatusNotifierTray } from './status-notifier-tray.js';
import type { TrayAdapterFactory } from './tray-adapter.js';
import { startWindowsTray } from './windows-tray.js';

export const startPlatformTray: TrayAdapterFactory = async (options) => {
  if (process.platform === 'win32') return startWindowsTray(options);
  if (process.platform === 'darwin') {
    options.log('no tray icon: the macOS menu bar item is not built yet');
    return undefined;
  }
  return startStatusNotifierTray(options);
};
