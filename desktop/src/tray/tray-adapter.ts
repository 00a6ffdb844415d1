// What an OS tray adapter does: draw the model it is given, report the menu entry chosen, and go away.
import type { TrayAction, TrayModel } from './tray-model.js';

export interface TrayAdapter {
  show(model: TrayModel): void;
  close(): Promise<void>;
}

/** Starts an adapter; undefined (after saying why, once, in `log`) when this desktop has no tray to put it in. */
export type TrayAdapterFactory = (options: {
  onAction(action: TrayAction): void;
  log(message: string): void;
}) => Promise<TrayAdapter | undefined>;
