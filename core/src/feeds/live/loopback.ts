// The host names that reach this machine only: feeds never talk to, or answer for, anything else.

/** As `URL.hostname` spells them: lower case, IPv6 in brackets. */
export const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** As a socket's `host` option takes them (IPv6 without brackets). */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1']);

const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[^:@/[\]]+)(?::\d{1,5})?$/i;

/** A `Host` header (`name[:port]`) that names this machine. */
export function isLoopbackHostHeader(host: string): boolean {
  const hostname = HOST_HEADER.exec(host.trim())?.[1];
  return hostname !== undefined && LOOPBACK_HOSTNAMES.has(hostname.toLowerCase());
}

/** URL schemes a feed may use, and how messages name them. */
export const HTTP_SCHEMES = { protocols: ['http:', 'https:'], name: 'http(s)' } as const;
export const WEBSOCKET_SCHEMES = { protocols: ['ws:', 'wss:'], name: 'ws(s)' } as const;

/** `text` as a URL of one of the schemes on this machine; throws, naming the feed, when it is anything else. */
export function loopbackUrl(feed: string, text: string, schemes: { protocols: readonly string[]; name: string }): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${feed}: "${text}" is not a URL`);
  }
  if (!schemes.protocols.includes(url.protocol) || !LOOPBACK_HOSTNAMES.has(url.hostname)) {
    throw new Error(`${feed}: ${url.href} is not a local ${schemes.name} URL; only ${[...LOOPBACK_HOSTNAMES].join(', ')} may be reached`);
  }
  return url;
}

/** The host a client feed connects to (default 127.0.0.1); throws, naming the feed, when it is not this machine. */
export function loopbackHost(feed: string, host = '127.0.0.1'): string {
  if (!LOOPBACK_HOSTS.has(host.toLowerCase())) {
    throw new Error(`${feed}: host "${host}" is not this machine; only ${[...LOOPBACK_HOSTS].join(', ')} may be connected to`);
  }
  return host;
}

/** Throws, naming the feed, unless `port` is a TCP/UDP port number (1–65535). */
export function checkPort(feed: string, port: number): void {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${feed}: port ${port} is not a port number (1–65535)`);
}
