// The tray of a real `keyframe --app --minimised` on a private D-Bus session bus, with a StatusNotifierWatcher of
// the test's own standing in for the desktop's tray host: the icon registers, shows idle; its menu starts a
// recording (the icon turns to recording) and saves a replay (a notification names it); start with the computer writes
// its autostart entry; Quit stops the recording cleanly and leaves a playable file.
import { expect } from 'chai';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { interface as dbusInterface, sessionBus, Variant, type MessageBus } from 'dbus-next';
import { createTempFolder, ProtocolClient, type TempFolder } from '@keyframe/integration-testkit';
import { startPrivateSessionBus, type PrivateSessionBus } from '@keyframe/desktop/testing';
import { ffprobePath } from '../kit/processes.js';

const KEYFRAME = fileURLToPath(new URL('../../../core/dist/main.js', import.meta.url));

/** The desktop's side of the tray protocol: it only remembers which items registered. */
class FakeStatusNotifierWatcher extends dbusInterface.Interface {
  readonly items: string[] = [];
  private readonly registered: Array<(name: string) => void> = [];
  constructor() {
    super('org.kde.StatusNotifierWatcher');
  }
  RegisterStatusNotifierItem(name: string): void {
    this.items.push(name);
    this.registered.splice(0).forEach((resolve) => resolve(name));
  }
  get IsStatusNotifierHostRegistered(): boolean {
    return true;
  }
  get ProtocolVersion(): number {
    return 0;
  }
  nextItem(): Promise<string> {
    return new Promise((resolve) => this.registered.push(resolve));
  }
}
FakeStatusNotifierWatcher.configureMembers({
  methods: { RegisterStatusNotifierItem: { inSignature: 's', outSignature: '' } },
  properties: { IsStatusNotifierHostRegistered: { signature: 'b', access: 'read' }, ProtocolVersion: { signature: 'i', access: 'read' } },
});

/** The desktop's notification server: it only remembers what it was asked to show. */
class FakeNotificationServer extends dbusInterface.Interface {
  readonly shown: string[] = [];
  constructor() {
    super('org.freedesktop.Notifications');
  }
  Notify(_app: string, _replaces: number, _icon: string, summary: string, body: string): number {
    this.shown.push(`${summary}: ${body}`);
    return this.shown.length;
  }
}
FakeNotificationServer.configureMembers({ methods: { Notify: { inSignature: 'susssasa{sv}i', outSignature: 'u' } } });

type MenuLayout = [number, [number, Record<string, Variant>, Variant<[number, Record<string, Variant>, Variant[]]>[]]];

/** What a tray host reads of the item: its status, tooltip and menu, and how it clicks an entry. */
async function trayOf(bus: MessageBus, name: string) {
  const item = (await bus.getProxyObject(name, '/StatusNotifierItem')).getInterface('org.freedesktop.DBus.Properties');
  const menu = (await bus.getProxyObject(name, '/MenuBar')).getInterface('com.canonical.dbusmenu');
  const property = async (key: string) => ((await item.Get!('org.kde.StatusNotifierItem', key)) as Variant).value as unknown;
  const entries = async () => {
    const [, [, , children]] = (await menu.GetLayout!(0, -1, [])) as MenuLayout;
    return children.map(({ value: [id, properties] }) => ({
      id,
      label: properties.label!.value as string,
      enabled: properties.enabled!.value as boolean,
    }));
  };
  return {
    tooltip: async () => ((await property('ToolTip')) as [string, unknown, string, string])[3],
    status: () => property('Status'),
    entries,
    async click(label: string) {
      const entry = (await entries()).find((candidate) => candidate.label === label);
      if (!entry?.enabled) throw new Error(`no enabled menu entry "${label}" in ${JSON.stringify(await entries())}`);
      await menu.Event!(entry.id, 'clicked', new Variant('s', ''), 0);
    },
  };
}

async function until<T>(read: () => Promise<T>, wanted: (value: T) => boolean, what: string, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (wanted(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('desktop tray', function () {
  this.timeout(60000);
  let bus: PrivateSessionBus;
  let host: MessageBus;
  let data: TempFolder;
  let keyframe: ChildProcess | undefined;
  let printed = '';

  before(async function () {
    if (process.platform !== 'linux') this.skip();
    bus = await startPrivateSessionBus();
    data = await createTempFolder();
  });
  after(async () => {
    if (keyframe && keyframe.exitCode === null && keyframe.signalCode === null) {
      keyframe.kill('SIGKILL');
      await once(keyframe, 'exit');
    }
    host?.disconnect();
    await bus?.stop();
    await data?.remove();
  });

  it('shows idle, records and saves a replay from its menu (notified), writes the autostart entry; Quit stops the recording cleanly', async () => {
    host = sessionBus({ busAddress: bus.address });
    const watcher = new FakeStatusNotifierWatcher();
    host.export('/StatusNotifierWatcher', watcher);
    await host.requestName('org.kde.StatusNotifierWatcher', 0);
    const notifications = new FakeNotificationServer();
    host.export('/org/freedesktop/Notifications', notifications);
    await host.requestName('org.freedesktop.Notifications', 0);

    const content = path.join(data.path, 'videos');
    await mkdir(content);
    const settings = { contentFolder: content, recordingMode: 'Hybrid', resolution: '720p', frameRate: 30 };
    await writeFile(path.join(data.path, 'settings.json'), JSON.stringify(settings));
    const home = path.join(data.path, 'home');
    keyframe = spawn(process.execPath, [KEYFRAME, '--app', '--minimised', '--data-dir', data.path, '--port', '0', '--legacy-port', 'off'], {
      env: {
        ...process.env,
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        DBUS_SESSION_BUS_ADDRESS: bus.address,
        KEYFRAME_CAPTURE: 'synthetic',
        KEYFRAME_GAME_PROCESS_ROOT: data.path,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    keyframe.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    keyframe.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const exited = once(keyframe, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

    const name = await Promise.race([
      watcher.nextItem(),
      exited.then(([code]) => Promise.reject(new Error(`keyframe exited (${code}) before its tray registered:\n${printed}`))),
    ]);
    const tray = await trayOf(host, name);
    expect([await tray.tooltip(), await tray.status()]).to.deep.equal(['Keyframe: not recording', 'Active']);
    expect((await tray.entries()).map((entry) => entry.label)).to.deep.equal([
      'Open Keyframe',
      'Start recording',
      'Save replay',
      'Open the videos folder',
      'Quit Keyframe',
    ]);

    // Start recording is enabled once the capture engine has loaded (the service refuses a recording before).
    await until(
      () =>
        tray.click('Start recording').then(
          () => true,
          () => false,
        ),
      Boolean,
      'Start recording',
    );
    await until(
      () => tray.status(),
      (status) => status === 'NeedsAttention',
      'the tray status while recording',
    );
    expect(await tray.tooltip()).to.match(/^Keyframe: recording/);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await tray.click('Save replay');
    const replay = await until(
      async () => notifications.shown,
      (shown) => shown.length > 0,
      'the replay notification',
    );
    expect(replay[0]).to.match(/^Replay saved: \S/);

    // Start with the computer, switched on as a frontend does: the autostart entry runs this app, minimised.
    const frontend = await ProtocolClient.connect(/UI:\s+(http:\/\/\S+)/.exec(printed)![1]!);
    frontend.send('UpdateSettings', { runOnStartup: true });
    await frontend.next('Settings', (settings) => settings.runOnStartup);
    await frontend.close();
    const entry = path.join(home, '.config', 'autostart', 'keyframe.desktop');
    const exec = await until(
      () => readFile(entry, 'utf8').catch(() => ''),
      (text) => text.includes('Exec='),
      'the autostart entry',
    );
    expect(exec).to.include(`Exec=${process.execPath} ${KEYFRAME} --app --data-dir ${data.path} --minimised\n`);

    await tray.click('Quit Keyframe');
    const stuck = setTimeout(() => keyframe?.kill('SIGKILL'), 30000);
    const [code] = await exited.finally(() => clearTimeout(stuck));
    expect(code, `keyframe did not exit cleanly after Quit:\n${printed}`).to.equal(0);

    const videos = (await readdir(content, { recursive: true })).filter((file) => file.endsWith('.mp4'));
    expect(videos, printed).to.have.length(2); // the replay and the session
    const duration = await new Promise<string>((resolve, reject) =>
      execFile(
        ffprobePath(),
        [
          '-v',
          'error',
          '-show_entries',
          'format=duration',
          '-of',
          'csv=p=0',
          path.join(
            content,
            videos.find((file) => file.startsWith('Full Sessions'))!,
          ),
        ],
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );
    expect(Number(duration)).to.be.greaterThan(1.5);
  });
});
