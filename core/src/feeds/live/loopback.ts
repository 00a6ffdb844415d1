// The host names that reach this machine only: feeds never talk to, or answer for, anything else.

/** As `URL.hostname` spells them: lower case, IPv6 in brackets. */
export const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[^:@/[\]]+)(?::\d{1,5})?$/i;

/** A `Host` header (`name[:port]`) that names this machine. */
export function isLoopbackHostHeader(host: string): boolean {
  const hostname = HOST_HEADER.exec(host.trim())?.[1];
  return hostname !== undefined && LOOPBACK_HOSTNAMES.has(hostname.toLowerCase());
}
