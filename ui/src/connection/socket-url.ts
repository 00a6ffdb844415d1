// Where the backend's WebSocket is: the page's own host, unless `?ws=` says otherwise. This UI speaks SPEC's
// names, so it always asks for the `spec` dialect, whatever dialect the service gives connections that do not ask,
// and for Incremental State (`?state=patch`: StatePatch events after the first full State).

/** Used when the page has no host, e.g. a desktop host loading the files from disk. */
const DEFAULT_SOCKET_URL = 'ws://127.0.0.1:44030/';

export function socketUrl(location: Location): string {
  const override = new URLSearchParams(location.search).get('ws');
  const overrideUrl = override ? parseSocketUrl(override) : undefined;
  if (overrideUrl) return withConnectionTerms(overrideUrl);
  if (!location.host) return withConnectionTerms(new URL(DEFAULT_SOCKET_URL));
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return withConnectionTerms(new URL(`${scheme}//${location.host}/`));
}

function withConnectionTerms(url: URL): string {
  url.searchParams.set('dialect', 'spec');
  url.searchParams.set('state', 'patch');
  return url.href;
}

/** Accepts `ws://…`, `wss://…`, `http(s)://…` or a bare `host:port`. */
function parseSocketUrl(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text.includes('://') ? text : `ws://${text}`);
  } catch {
    return undefined;
  }
  if (url.protocol === 'http:') url.protocol = 'ws:';
  if (url.protocol === 'https:') url.protocol = 'wss:';
  return url.protocol === 'ws:' || url.protocol === 'wss:' ? url : undefined;
}
