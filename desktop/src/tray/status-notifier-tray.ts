// The tray on Linux: a StatusNotifierItem on the D-Bus session bus (KDE, GNOME with the AppIndicator extension,
// XFCE, most bars), with its menu as com.canonical.dbusmenu, registered with the desktop's StatusNotifierWatcher.
import { interface as dbusInterface, type MessageBus } from 'dbus-next';
import { connectSessionBus, nameHasOwner } from '../dbus/session-bus.js';
import { DbusMenu, MENU_PATH } from './dbus-menu.js';
import type { TrayAdapter, TrayAdapterFactory } from './tray-adapter.js';
import { toArgb, trayIconPixels } from './tray-icons.js';
import type { TrayAction, TrayModel, TrayStatus } from './tray-model.js';

const WATCHER = 'org.kde.StatusNotifierWatcher';
const ITEM_PATH = '/StatusNotifierItem';
const ICON_SIZES = [22, 32, 48];

type Pixmap = Array<[number, number, Buffer]>;

class StatusNotifierItem extends dbusInterface.Interface {
  private model: TrayModel | undefined;

  constructor(private readonly onAction: (action: TrayAction) => void) {
    super('org.kde.StatusNotifierItem');
  }

  show(model: TrayModel): void {
    const previous = this.model;
    this.model = model;
    if (previous?.status !== model.status) {
      this.NewIcon();
      this.NewStatus(this.Status);
    }
    if (previous?.tooltip !== model.tooltip) {
      this.NewToolTip();
      this.NewTitle();
    }
  }

  get Category(): string {
    return 'ApplicationStatus';
  }
  get Id(): string {
    return 'keyframe';
  }
  get Title(): string {
    return this.model?.tooltip ?? 'Keyframe';
  }
  get Status(): string {
    return this.model?.status === 'recording' ? 'NeedsAttention' : 'Active';
  }
  get WindowId(): number {
    return 0;
  }
  get IconName(): string {
    return '';
  }
  get IconPixmap(): Pixmap {
    return pixmapOf(this.model?.status ?? 'idle');
  }
  get AttentionIconName(): string {
    return '';
  }
  get AttentionIconPixmap(): Pixmap {
    return pixmapOf('recording');
  }
  get ToolTip(): [string, Pixmap, string, string] {
    return ['', [], 'Keyframe', this.model?.tooltip ?? ''];
  }
  get ItemIsMenu(): boolean {
    return false;
  }
  get Menu(): string {
    return MENU_PATH;
  }

  /** A left click opens the window. */
  Activate(): void {
    this.onAction('open');
  }
  SecondaryActivate(): void {
    this.onAction('open');
  }
  ContextMenu(): void {}
  Scroll(): void {}

  NewIcon(): void {}
  NewTitle(): void {}
  NewToolTip(): void {}
  NewStatus(status: string): string {
    return status;
  }
}

StatusNotifierItem.configureMembers({
  properties: Object.fromEntries(
    Object.entries({
      Category: 's',
      Id: 's',
      Title: 's',
      Status: 's',
      WindowId: 'i',
      IconName: 's',
      IconPixmap: 'a(iiay)',
      AttentionIconName: 's',
      AttentionIconPixmap: 'a(iiay)',
      ToolTip: '(sa(iiay)ss)',
      ItemIsMenu: 'b',
      Menu: 'o',
    }).map(([name, signature]) => [name, { signature, access: dbusInterface.ACCESS_READ }]),
  ),
  methods: {
    Activate: { inSignature: 'ii', outSignature: '' },
    SecondaryActivate: { inSignature: 'ii', outSignature: '' },
    ContextMenu: { inSignature: 'ii', outSignature: '' },
    Scroll: { inSignature: 'is', outSignature: '' },
  },
  signals: {
    NewIcon: { signature: '' },
    NewTitle: { signature: '' },
    NewToolTip: { signature: '' },
    NewStatus: { signature: 's' },
  },
});

const pixmaps = new Map<TrayStatus, Pixmap>();
function pixmapOf(status: TrayStatus): Pixmap {
  if (!pixmaps.has(status))
    pixmaps.set(
      status,
      ICON_SIZES.map((size) => [size, size, toArgb(trayIconPixels(status, size))]),
    );
  return pixmaps.get(status)!;
}

export const startStatusNotifierTray: TrayAdapterFactory = async ({ onAction, log }) => {
  const connection = await connectSessionBus();
  if ('unavailable' in connection) {
    log(`no tray icon: ${connection.unavailable}`);
    return undefined;
  }
  const { bus } = connection;
  try {
    if (!(await nameHasOwner(bus, WATCHER))) {
      log('no tray icon: the desktop has no StatusNotifierWatcher (a tray host such as KDE, or GNOME with the AppIndicator extension)');
      bus.disconnect();
      return undefined;
    }
    return await register(bus, onAction);
  } catch (error) {
    log(`no tray icon: the StatusNotifierWatcher refused it: ${(error as Error).message}`);
    bus.disconnect();
    return undefined;
  }
};

async function register(bus: MessageBus, onAction: (action: TrayAction) => void): Promise<TrayAdapter> {
  const item = new StatusNotifierItem(onAction);
  const menu = new DbusMenu(onAction);
  bus.export(ITEM_PATH, item);
  bus.export(MENU_PATH, menu);
  // The name the specification asks for; the watcher also takes the unique name, which hosts then reach at ITEM_PATH.
  const name = `org.kde.StatusNotifierItem-${process.pid}-1`;
  await bus.requestName(name, 0);
  const watcher = await bus.getProxyObject(WATCHER, '/StatusNotifierWatcher');
  await watcher.getInterface(WATCHER).RegisterStatusNotifierItem!(name);
  return {
    show(model) {
      item.show(model);
      menu.show(model.items);
    },
    async close() {
      bus.unexport(ITEM_PATH, item);
      bus.unexport(MENU_PATH, menu);
      await bus.releaseName(name).catch(() => undefined);
      bus.disconnect();
    },
  };
}
