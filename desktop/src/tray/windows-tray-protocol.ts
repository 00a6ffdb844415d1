// The JSON lines between the Windows tray adapter and its PowerShell child. To the child: `show` (the icon file,
// tooltip and menu) and `close`. From the child: `ready` once its icon can show, `action` when an entry is clicked
// (a left click on the icon is `open`), `error` when it fails.
import { TRAY_ACTIONS, type TrayAction, type TrayModel } from './tray-model.js';

export type ToTrayChild = { type: 'show'; icon: string; tooltip: string; items: TrayModel['items'] } | { type: 'close' };
export type FromTrayChild = { type: 'ready' } | { type: 'action'; action: TrayAction } | { type: 'error'; message: string };

/** NotifyIcon.Text throws past 63 characters. */
export const MAX_TOOLTIP_LENGTH = 63;

export function showMessage(model: TrayModel, iconFile: string): string {
  const message: ToTrayChild = { type: 'show', icon: iconFile, tooltip: model.tooltip.slice(0, MAX_TOOLTIP_LENGTH), items: model.items };
  return `${JSON.stringify(message)}\n`;
}

export const closeMessage = (): string => `${JSON.stringify({ type: 'close' } satisfies ToTrayChild)}\n`;

/** A line from the child; undefined for anything else it prints (PowerShell warnings, a stray blank line). */
export function parseChildLine(line: string): FromTrayChild | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, action, message } = value as Record<string, unknown>;
  if (type === 'ready') return { type };
  if (type === 'action' && TRAY_ACTIONS.includes(action as TrayAction)) return { type, action: action as TrayAction };
  if (type === 'error' && typeof message === 'string') return { type, message };
  return undefined;
}
