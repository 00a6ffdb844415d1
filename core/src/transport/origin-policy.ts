// Who may talk to the service. Listeners bind to loopback, but a web page in the user's browser can
// still reach loopback: the Origin check stops foreign pages, the Host check stops DNS rebinding.
import type { IncomingMessage } from 'node:http';
import { injectable } from 'tsyringe';
import { ServiceOptions } from '../service-options.js';

/** The names of this machine a Host or Origin may use. */
export const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const;

@injectable()
export class OriginPolicy {
  constructor(private readonly options: ServiceOptions) {}

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

  /** The service's own pages or an allow-listed origin (`http://host:port`). */
  allows(origin: string, port: number): boolean {
    const normalized = origin.toLowerCase().replace(/\/$/, '');
    if (LOOPBACK_NAMES.some((name) => normalized === `http://${name}:${port}`)) return true;
    return this.options.allowedOrigins.some((allowed) => allowed.toLowerCase().replace(/\/$/, '') === normalized);
  }
}
