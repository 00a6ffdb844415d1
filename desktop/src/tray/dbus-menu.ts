// The tray's menu as com.canonical.dbusmenu (what StatusNotifierItem hosts read): a flat list of items under root 0,
// item n+1 being the model's n-th entry. A click arrives as Event(id, "clicked").
import { interface as dbusInterface, Variant } from 'dbus-next';
import type { TrayAction, TrayMenuItem } from './tray-model.js';

export const MENU_PATH = '/MenuBar';
const ROOT_ID = 0;

type MenuItemLayout = [number, Record<string, Variant>, Variant[]];

export class DbusMenu extends dbusInterface.Interface {
  private items: TrayMenuItem[] = [];
  private revision = 1;

  constructor(private readonly onAction: (action: TrayAction) => void) {
    super('com.canonical.dbusmenu');
  }

  show(items: TrayMenuItem[]): void {
    if (JSON.stringify(items) === JSON.stringify(this.items)) return;
    this.items = items;
    this.revision++;
    this.LayoutUpdated();
  }

  get Version(): number {
    return 3;
  }
  get TextDirection(): string {
    return 'ltr';
  }
  get Status(): string {
    return 'normal';
  }
  get IconThemePath(): string[] {
    return [];
  }

  GetLayout(parentId: number): [number, MenuItemLayout] {
    const children = parentId === ROOT_ID ? this.items.map((item, index) => new Variant('(ia{sv}av)', this.layoutOf(index + 1, item))) : [];
    const node: MenuItemLayout =
      parentId === ROOT_ID
        ? [ROOT_ID, { 'children-display': new Variant('s', 'submenu') }, children]
        : this.layoutOf(parentId, this.items[parentId - 1]);
    return [this.revision, node];
  }

  GetGroupProperties(ids: number[]): Array<[number, Record<string, Variant>]> {
    const wanted = ids.length > 0 ? ids : this.items.map((_, index) => index + 1);
    return wanted.filter((id) => this.items[id - 1]).map((id) => [id, this.propertiesOf(this.items[id - 1]!)]);
  }

  GetProperty(id: number, name: string): Variant {
    const property = this.items[id - 1] && this.propertiesOf(this.items[id - 1]!)[name];
    if (!property) throw new Error(`menu item ${id} has no property ${name}`);
    return property;
  }

  Event(id: number, eventId: string): void {
    const item = this.items[id - 1];
    if (eventId === 'clicked' && item?.enabled) this.onAction(item.action);
  }

  EventGroup(events: Array<[number, string, Variant, number]>): number[] {
    for (const [id, eventId] of events) this.Event(id, eventId);
    return events.map(([id]) => id).filter((id) => !this.items[id - 1]);
  }

  AboutToShow(): boolean {
    return false;
  }

  AboutToShowGroup(): [number[], number[]] {
    return [[], []];
  }

  LayoutUpdated(): [number, number] {
    return [this.revision, ROOT_ID];
  }

  private layoutOf(id: number, item: TrayMenuItem | undefined): MenuItemLayout {
    return [id, item ? this.propertiesOf(item) : {}, []];
  }

  private propertiesOf(item: TrayMenuItem): Record<string, Variant> {
    return { label: new Variant('s', item.label), enabled: new Variant('b', item.enabled), visible: new Variant('b', true) };
  }
}

DbusMenu.configureMembers({
  properties: {
    Version: { signature: 'u', access: 'read' },
    TextDirection: { signature: 's', access: 'read' },
    Status: { signature: 's', access: 'read' },
    IconThemePath: { signature: 'as', access: 'read' },
  },
  methods: {
    GetLayout: { inSignature: 'iias', outSignature: 'u(ia{sv}av)' },
    GetGroupProperties: { inSignature: 'aias', outSignature: 'a(ia{sv})' },
    GetProperty: { inSignature: 'is', outSignature: 'v' },
    Event: { inSignature: 'isvu', outSignature: '' },
    EventGroup: { inSignature: 'a(isvu)', outSignature: 'ai' },
    AboutToShow: { inSignature: 'i', outSignature: 'b' },
    AboutToShowGroup: { inSignature: 'ai', outSignature: 'aiai' },
  },
  signals: {
    LayoutUpdated: { signature: 'ui' },
  },
});
