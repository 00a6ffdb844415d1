// Notifications on Linux: org.freedesktop.Notifications on the D-Bus session bus (what notify-send calls, without
// needing libnotify's tools installed). No bus or no notification server: one line in the log, nothing shown.
import type { ClientInterface } from 'dbus-next';
import { connectSessionBus, nameHasOwner } from '../dbus/session-bus.js';
import type { DesktopNotice, DesktopNotifier } from './desktop-notice.js';

const SERVER = 'org.freedesktop.Notifications';
/** The server's default time on screen. */
const DEFAULT_TIMEOUT = -1;

export async function startLinuxNotifier(log: (message: string) => void): Promise<DesktopNotifier | undefined> {
  const connection = await connectSessionBus();
  if ('unavailable' in connection) {
    log(`no notifications: ${connection.unavailable}`);
    return undefined;
  }
  const { bus } = connection;
  let server: ClientInterface;
  try {
    if (!(await nameHasOwner(bus, SERVER))) throw new Error('no notification server runs on the session bus');
    server = (await bus.getProxyObject(SERVER, '/org/freedesktop/Notifications')).getInterface(SERVER);
  } catch (error) {
    log(`no notifications: ${(error as Error).message}`);
    bus.disconnect();
    return undefined;
  }
  return {
    async notify({ title, body }: DesktopNotice) {
      await server.Notify!('Keyframe', 0, 'media-record', title, escapeMarkup(body), [], {}, DEFAULT_TIMEOUT);
    },
    async close() {
      bus.disconnect();
    },
  };
}

/** Servers may read the body as a subset of HTML: a file name with `<` or `&` must show as written. */
const escapeMarkup = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
