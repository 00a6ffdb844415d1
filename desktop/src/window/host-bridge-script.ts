// What the app window's pages get: `window.external.sendMessage(string)`, the way a desktop host (a WebView
// shell) provides it. It calls a DevTools binding; only pages of the service's own origin get it, and the
// binding's calls are checked for that origin again (a page could call the raw binding).

export const BRIDGE_BINDING = '__keyframeHostSend';

/** The script run in every new document of the window, before the page's own. */
export function hostBridgeScript(serviceOrigin: string): string {
  return `(() => {
  if (location.origin !== ${JSON.stringify(serviceOrigin)}) return;
  const send = window[${JSON.stringify(BRIDGE_BINDING)}];
  if (typeof send !== 'function') return;
  if (window.external === undefined || window.external === null) Object.defineProperty(window, 'external', { value: {} });
  Object.defineProperty(window.external, 'sendMessage', { value: (message) => send(String(message)), configurable: true });
})();`;
}
