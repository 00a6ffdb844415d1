// Where the backend's WebSocket is: the page's own host, unless `?ws=` says otherwise.

/** Used when the page has no host, e.g. a desktop host loading the files from disk. */
const DEFAULT_SOCKET_URL = 'ws://127.0.0.1:44030/';

export function socketUrl(location: Location): string {
  const override = new URLSearchParams(location.search).get('ws');
  const overrideUrl = override ? parseSocketUrl(override) : undefined;
  if (overrideUrl) return overrideUrl;
  if (!location.host) return DEFAULT_SOCKET_URL;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/`;
}

/** Accepts `ws://…`, `wss://…`, `http(s)://…` or a bare `host:port`. */
function parseSocketUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.includes('://') ? text : `ws://${text}`);
  } catch {
    return undefined;
  }
  if (url.protocol === 'http:') url.protocol = 'ws:';
  if (url.protocol === 'https:') url.protocol = 'wss:';
  return url.protocol === 'ws:' || url.protocol === 'wss:' ? url.href : undefined;
}
