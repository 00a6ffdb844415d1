import { expect } from 'chai';
import { interface as dbusInterface, sessionBus, type MessageBus } from 'dbus-next';
import { startPrivateSessionBus, type PrivateSessionBus } from '../testing/private-session-bus.js';
import { startLinuxNotifier } from './linux-notifier.js';

/** A notification server that only remembers what it was asked to show. */
class FakeNotificationServer extends dbusInterface.Interface {
  readonly shown: Array<{ app: string; summary: string; body: string }> = [];
  constructor() {
    super('org.freedesktop.Notifications');
  }
  Notify(app: string, _replaces: number, _icon: string, summary: string, body: string): number {
    this.shown.push({ app, summary, body });
    return this.shown.length;
  }
}
FakeNotificationServer.configureMembers({ methods: { Notify: { inSignature: 'susssasa{sv}i', outSignature: 'u' } } });

describe('Linux notifications over D-Bus', function () {
  this.timeout(10000);
  let bus: PrivateSessionBus;
  let serverBus: MessageBus;
  const previousAddress = process.env.DBUS_SESSION_BUS_ADDRESS;
  const said: string[] = [];

  before(async () => {
    bus = await startPrivateSessionBus();
    process.env.DBUS_SESSION_BUS_ADDRESS = bus.address;
  });
  after(async () => {
    serverBus?.disconnect();
    await bus?.stop();
    process.env.DBUS_SESSION_BUS_ADDRESS = previousAddress;
    if (previousAddress === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
  });

  it('says once why there are none when no notification server runs', async () => {
    expect(await startLinuxNotifier((line) => said.push(line))).to.equal(undefined);
    expect(said).to.deep.equal(['no notifications: no notification server runs on the session bus']);
  });

  it("calls the server's Notify with the title and the text, markup characters shown as written", async () => {
    serverBus = sessionBus({ busAddress: bus.address });
    const server = new FakeNotificationServer();
    serverBus.export('/org/freedesktop/Notifications', server);
    await serverBus.requestName('org.freedesktop.Notifications', 0);
    const notifier = await startLinuxNotifier((line) => said.push(line));
    await notifier!.notify({ kind: 'clipSaved', title: 'Clip saved', body: 'Triple <kill> & run' });
    await notifier!.close();
    expect(server.shown).to.deep.equal([{ app: 'Keyframe', summary: 'Clip saved', body: 'Triple &lt;kill&gt; &amp; run' }]);
  });
});
