// The D-Bus session bus of the desktop the user is logged in to (the tray and notifications on Linux), or why there
// is none. Only DBUS_SESSION_BUS_ADDRESS is used: no X11 or launchd discovery, which would start a bus of its own.
import { sessionBus, type MessageBus } from 'dbus-next';

const CONNECT_TIMEOUT_MS = 3000;

export type SessionBusConnection = { bus: MessageBus } | { unavailable: string };

export async function connectSessionBus(environment: NodeJS.ProcessEnv = process.env): Promise<SessionBusConnection> {
  const address = environment.DBUS_SESSION_BUS_ADDRESS;
  if (!address) return { unavailable: 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)' };
  const bus = sessionBus({ busAddress: address });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
      bus.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      bus.once('error', (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  } catch (error) {
    bus.disconnect();
    return { unavailable: `the D-Bus session bus at ${address} did not answer: ${(error as Error).message}` };
  }
  // A bus that goes away later (the session ends) must not crash the service.
  bus.on('error', () => undefined);
  return { bus };
}

/** Whether a well-known name has an owner on the bus (a tray host's watcher, a notification server). */
export async function nameHasOwner(bus: MessageBus, name: string): Promise<boolean> {
  const dbusObject = await bus.getProxyObject('org.freedesktop.DBus', '/org/freedesktop/DBus');
  return (await dbusObject.getInterface('org.freedesktop.DBus').NameHasOwner!(name)) as boolean;
}
