// A D-Bus session bus of a test's own (dbus-daemon from the Debian package `dbus`), so tray and notification tests
// never reach the desktop of whoever runs them.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface PrivateSessionBus {
  /** For DBUS_SESSION_BUS_ADDRESS. */
  address: string;
  stop(): Promise<void>;
}

export async function startPrivateSessionBus(): Promise<PrivateSessionBus> {
  const daemon = spawn('dbus-daemon', ['--session', '--nofork', '--nopidfile', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const address = await new Promise<string>((resolve, reject) => {
    daemon.once('error', (error) => reject(new Error(`dbus-daemon did not start (Debian package: dbus): ${error.message}`)));
    daemon.once('exit', (code) => reject(new Error(`dbus-daemon exited at once (${code})`)));
    createInterface({ input: daemon.stdout }).once('line', resolve);
  });
  return {
    address,
    async stop() {
      if (daemon.exitCode !== null) return;
      const exited = new Promise((resolve) => daemon.once('exit', resolve));
      daemon.kill();
      await exited;
    },
  };
}
