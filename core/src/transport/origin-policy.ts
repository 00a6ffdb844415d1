// Who may talk to the service. Listeners bind to loopback, but a web page in the user's browser can
// still reach loopback: the Origin check stops foreign pages, the Host check stops DNS rebinding.
import type { IncomingMessage } from 'node:http';
import { injectable } from 'tsyringe';
import { LOOPBACK_NAMES, parseAllowedOrigin, ServiceOptions, type AllowedOrigin } from '../service-options.js';

@injectable()
export class OriginPolicy {
  private readonly allowed: readonly AllowedOrigin[];

  constructor(options: ServiceOptions) {
    this.allowed = options.allowedOrigins.map(parseAllowedOrigin);
  }

  /** The Host header names this machine on the port we listen on. */
  isLocalHost(request: IncomingMessage, port: number): boolean {
    const host = request.headers.host?.toLowerCase();
    return host !== undefined && LOOPBACK_NAMES.some((name) => host === `${name}:${port}` || (port === 80 && host === name));
  }

  /**
   * No Origin (a desktop host, a script), the service's own pages, or an origin allowed on the command
   * line or in the environment. Never one from the settings: a connected page could write those.
   */
  isAllowedOrigin(request: IncomingMessage, port: number): boolean {
    const origin = request.headers.origin;
    return origin === undefined || this.allows(origin, port);
  }

  /** The service's own pages (those of `port`, the main one) or an allow-listed origin (`http://host:port`, or in a port range). */
  allows(origin: string, port: number): boolean {
    const normalized = origin.toLowerCase().replace(/\/$/, '');
    if (LOOPBACK_NAMES.some((name) => normalized === `http://${name}:${port}`)) return true;
    return this.allowed.some((allowed) => matches(allowed, normalized));
  }
}

function matches(allowed: AllowedOrigin, origin: string): boolean {
  if (!allowed.ports) return allowed.origin === origin;
  if (!origin.startsWith(allowed.origin)) return false;
  const port = origin.slice(allowed.origin.length);
  // Digits only, as a browser writes a port: `44050`, never `044050` or `44050/x`.
  return /^[1-9]\d*$/.test(port) && Number(port) >= allowed.ports.first && Number(port) <= allowed.ports.last;
}
