// The service's side of keyframe-launcher: say when it serves frontends (the launcher rolls a new
// version back without it), and exit with the restart code once an update is installed.
import { READY_MESSAGE } from './install-root.js';
import type { Updater } from './updater.js';

export function connectToLauncher(updater: Updater, restart: () => void): void {
  if (!updater.canSelfUpdate || typeof process.send !== 'function') return;
  updater.onRestartRequested(restart);
  process.send(READY_MESSAGE);
  // The IPC channel must not keep the process alive once the service stops.
  process.channel?.unref();
}
