// The window the UI runs in, as far as the backend can act on it. A desktop shell that embeds the
// service (see host.ts) supplies its own; served to a browser tab, the UI is its own window and
// enters fullscreen itself (the Fullscreen API needs the user's click in the page anyway).

export interface DesktopWindow {
  /** Human-readable kind, for logs. */
  readonly kind: string;
  /** Maximises (true) or restores (false) the window; undefined when the UI does it itself. */
  setFullscreen?(enabled: boolean): void | Promise<void>;
  /** Brings the window to the front, opening it again if the user closed it; undefined when the service has no window of its own. */
  show?(): Promise<void>;
}
export const DESKTOP_WINDOW = Symbol('DesktopWindow');

export const browserTab: DesktopWindow = { kind: 'browser tab' };
