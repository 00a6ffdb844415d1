// The service's one HTTP server on loopback: the frontend WebSocket on `/`, and the HTTP routes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { injectable } from 'tsyringe';
import { WebSocket, WebSocketServer } from 'ws';
import { LOOPBACK_HOST, ServiceOptions } from '../service-options.js';
import { Logger } from '../support/logger.js';
import { WIRE_DIALECTS, type WireDialect } from '../protocol/settings.js';
import { ConnectionHub, type ConnectionTerms } from './connection-hub.js';
import { DefaultDialect } from './default-dialect.js';
import { Dispatcher, MAX_COMMAND_BYTES } from './dispatcher.js';
import { HttpRoutes } from './http-routes.js';
import { OriginPolicy } from './origin-policy.js';

/** Frames between 1 MiB and this size are refused politely; larger ones close the socket (1009). */
const MAX_FRAME_BYTES = 4 * MAX_COMMAND_BYTES;
/** Bounds the refusal counts a page could grow by inventing origins. */
const MAX_ORIGINS_REMEMBERED = 100;
/** Chromium keeps a used idle HTTP/1.1 socket for 5 minutes; the server keeps it a little longer. */
export const BROWSER_IDLE_SOCKET_MS = 310_000;

@injectable()
export class HttpServer {
  private readonly server: Server;
  private readonly sockets: WebSocketServer;
  private readonly logger: Logger;
  private boundPort = 0;
  /** Refused upgrades per origin: the first is a warning (a UI someone forgot to allow), the rest debug (a page may retry forever). */
  private readonly refusedUpgrades = new Map<string, number>();

  constructor(
    private readonly options: ServiceOptions,
    private readonly hub: ConnectionHub,
    private readonly dispatcher: Dispatcher,
    private readonly policy: OriginPolicy,
    private readonly routes: HttpRoutes,
    private readonly defaultDialect: DefaultDialect,
    logger: Logger,
  ) {
    this.logger = logger.child('transport');
    this.sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
    // Node closes an idle keep-alive socket after 5 s, while Chromium reuses one for minutes: a request sent on a
    // socket just as the server closes it gets an empty response (a video range request is not retried).
    // The browser, not the server, decides when an idle loopback socket goes.
    this.server = createServer((request, response) => void this.serveHttp(request, response));
    this.server.keepAliveTimeout = BROWSER_IDLE_SOCKET_MS;
    this.server.on('upgrade', (request, socket, head) => {
      try {
        this.upgrade(request, socket, head);
      } catch (error) {
        this.logger.error('WebSocket upgrade failed', { path: pathOf(request) ?? request.url, error });
        socket.destroy();
      }
    });
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `http://${LOOPBACK_HOST}:${this.boundPort}/`;
  }

  async listen(): Promise<void> {
    await listenOnLoopback(this.server, this.options.port);
    this.boundPort = (this.server.address() as { port: number }).port;
    this.logger.info('listening', { url: this.url });
  }

  async close(): Promise<void> {
    this.hub.close();
    for (const client of this.sockets.clients) client.terminate();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const asked = askedDialect(request);
    const dialect = asked.dialect ?? this.defaultDialect.current;
    const updates = askedStateUpdates(request, dialect);
    const unreadable = asked.unknown ?? updates.unknown;
    const refusal = this.refusal(request) ?? upgradePathRefusal(request) ?? (unreadable ? [400, 'Bad Request', unreadable] : undefined);
    if (refusal) {
      const [status, text, reason = ''] = refusal;
      // Until ws takes the socket over, nothing else listens for its errors: a reset would be an uncaught exception.
      socket.on('error', () => socket.destroy());
      this.logRefusedUpgrade(request, status, reason);
      socket.end(
        `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
      );
      return;
    }
    this.sockets.handleUpgrade(request, socket, head, (client) => this.accept(client, { dialect, statePatches: updates.patches }));
  }

  private logRefusedUpgrade(request: IncomingMessage, status: number, reason: string): void {
    const origin = request.headers.origin ?? '';
    const count = (this.refusedUpgrades.get(origin) ?? 0) + 1;
    if (count === 1 && this.refusedUpgrades.size >= MAX_ORIGINS_REMEMBERED) this.refusedUpgrades.clear();
    this.refusedUpgrades.set(origin, count);
    const log = count === 1 ? this.logger.warn : this.logger.debug;
    log.call(this.logger, 'WebSocket upgrade refused', {
      status,
      origin: request.headers.origin,
      host: request.headers.host,
      path: pathOf(request) ?? request.url,
      count,
      ...(reason && { reason }),
    });
  }

  private accept(client: WebSocket, terms: ConnectionTerms): void {
    const { dialect } = terms;
    this.logger.info('frontend connected', { dialect, ...(terms.statePatches && { state: 'patch' }) });
    this.hub.attach(client, terms);
    client.on('message', (data, isBinary) => {
      // Frames that arrive after the connection began closing (replaced, or not reading its output) are not run.
      if (client.readyState === WebSocket.OPEN) void this.dispatcher.handle(toBuffer(data), dialect, isBinary);
    });
    client.on('error', (error) => this.logger.warn('WebSocket error', { error }));
    client.on('close', (code, reason) => this.logger.info('frontend disconnected', { code, reason: reason.toString() }));
  }

  /** Never rejects: a failing handler is a 500 and an error in the log, a request the service cannot read a 400. */
  private async serveHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const refusal = this.refusal(request);
      if (refusal) return void plainAnswer(response, ...refusal);
      const url = parseRequestUrl(request, this.url);
      if (!url) return void plainAnswer(response, 400, 'Bad Request: unreadable URL');
      const handler = this.routes.find(url.pathname);
      if (!handler) return void plainAnswer(response, 404, 'Not Found');
      await handler(request, response, url);
    } catch (error) {
      this.logger.error('HTTP handler failed', { path: pathOf(request) ?? request.url, error });
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain' });
      response.end();
    }
  }

  private refusal(request: IncomingMessage): [number, string] | undefined {
    if (!this.policy.isLocalHost(request, this.boundPort)) return [403, 'Forbidden: unexpected Host'];
    if (!this.policy.isAllowedOrigin(request, this.boundPort)) return [403, 'Forbidden: origin not allowed'];
    return undefined;
  }
}

export function listenOnLoopback(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export function plainAnswer(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }).end(text);
}

/** The request's URL against the service's address, or undefined when it is not a URL at all (e.g. `http://[`). */
function parseRequestUrl(request: IncomingMessage, base: string): URL | undefined {
  try {
    return new URL(request.url ?? '/', base);
  } catch {
    return undefined;
  }
}

/** A status, its text, and for people the reason (the body), when there is more to say. */
type Refusal = [status: number, text: string, reason?: string];

/** The WebSocket is on `/` only. */
function upgradePathRefusal(request: IncomingMessage): Refusal | undefined {
  const pathname = pathOf(request);
  if (pathname === undefined) return [400, 'Bad Request'];
  return pathname === '/' ? undefined : [404, 'Not Found'];
}

/** The dialect a connection asks for with `?dialect=` (`?state=` is read by askedStateUpdates), or why it cannot have it. */
function askedDialect(request: IncomingMessage): { dialect?: WireDialect; unknown?: string } {
  const asked = parseRequestUrl(request, 'http://localhost/')?.searchParams.get('dialect');
  if (asked === null || asked === undefined) return {};
  if ((WIRE_DIALECTS as readonly string[]).includes(asked)) return { dialect: asked as WireDialect };
  const choices = WIRE_DIALECTS.map((name) => `?dialect=${name}`).join(' or ');
  return { unknown: `Unknown dialect ${JSON.stringify(asked.slice(0, 40))}: ask for ${choices}` };
}

/** Whether a connection asks for Incremental State with `?state=patch` (`?state=full` is the default), or why it cannot have it. */
function askedStateUpdates(request: IncomingMessage, dialect: WireDialect): { patches: boolean; unknown?: string } {
  const asked = parseRequestUrl(request, 'http://localhost/')?.searchParams.get('state');
  if (asked === null || asked === undefined || asked === 'full') return { patches: false };
  if (asked !== 'patch')
    return { patches: false, unknown: `Unknown state updates ${JSON.stringify(asked.slice(0, 40))}: ask for ?state=patch or ?state=full` };
  if (dialect !== 'spec')
    return { patches: false, unknown: 'Incremental State (?state=patch) is spoken in the spec dialect only: ask for ?dialect=spec too' };
  return { patches: true };
}

function pathOf(request: IncomingMessage): string | undefined {
  return parseRequestUrl(request, 'http://localhost/')?.pathname;
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}
