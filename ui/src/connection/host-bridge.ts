// A desktop host (a WebView shell) may inject `window.external.sendMessage`: commands then go through
// it instead of the WebSocket. Looked up on every send, since a host can inject it after page load.

declare global {
  interface External {
    sendMessage?: (message: string) => void;
  }
}

export function hostSender(): ((message: string) => void) | undefined {
  const external: External | undefined = window.external;
  const sendMessage = external?.sendMessage;
  return typeof sendMessage === 'function' ? (message) => sendMessage.call(external, message) : undefined;
}
