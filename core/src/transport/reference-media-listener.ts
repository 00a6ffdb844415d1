// The media routes where the reference frontend loads them (protocol-gaps §10): `http://localhost:2222/api/...`.
// A second loopback listener with the main port's media handlers (same path safety, origin rules, frame cache)
// and nothing else. It listens while the default dialect is `reference` (--dialect, else the `wireDialect`
// setting: at start-up and when the setting becomes `reference`), and when a connection asks for that dialect
// (`ensureListening`). Once listening it stays until the service stops: a reference frontend may still be
// connected when the default changes back, and its player would lose its video mid-play.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { injectable } from 'tsyringe';
import { Notifier } from '../notices/notifier.js';
import { LOOPBACK_HOST, ServiceOptions } from '../service-options.js';
import { SettingsStore } from '../settings/settings-store.js';
import { Logger } from '../support/logger.js';
import { ConnectionHub } from './connection-hub.js';
import { DefaultDialect } from './default-dialect.js';
import { HttpRoutes } from './http-routes.js';
import { BROWSER_IDLE_SOCKET_MS, listenOnLoopback, plainAnswer } from './http-server.js';
import { MediaRoutes } from './media-routes.js';
import { OriginPolicy } from './origin-policy.js';

@injectable()
export class ReferenceMediaListener {
  private readonly server: Server;
  private readonly routes = new HttpRoutes();
  private readonly logger: Logger;
  private boundPort: number | undefined;
  private attempt: Promise<void> | undefined;
  private portTakenShown = false;
  private stopped = false;
  private stopFollowing: (() => void) | undefined;

  constructor(
    private readonly options: ServiceOptions,
    private readonly settings: SettingsStore,
    private readonly defaultDialect: DefaultDialect,
    private readonly hub: ConnectionHub,
    private readonly policy: OriginPolicy,
    private readonly notifier: Notifier,
    media: MediaRoutes,
    logger: Logger,
  ) {
    this.logger = logger.child('reference-media');
    media.install(this.routes);
    this.server = createServer((request, response) => void this.serve(request, response));
    this.server.keepAliveTimeout = BROWSER_IDLE_SOCKET_MS;
  }

  /** The bound port, or undefined while not listening (off, not wanted yet, or the port taken). */
  get port(): number | undefined {
    return this.boundPort;
  }

  /**
   * Listens now if the default dialect is `reference`, and later when the `wireDialect` setting becomes `reference`
   * or a connection asks for that dialect.
   */
  async start(): Promise<void> {
    const wanted = () => this.defaultDialect.current === 'reference';
    this.stopFollowing = this.settings.onChange(() => {
      if (wanted()) void this.ensureListening();
    });
    this.hub.onAttached((dialect) => {
      if (dialect === 'reference') void this.ensureListening();
    });
    if (wanted()) await this.ensureListening();
  }

  /**
   * Listens on `referenceMediaPort` unless it already does, the option is off or the service is stopping; safe to
   * call on every reference-dialect connection. A taken port is not fatal: a warning, and the next call tries again.
   */
  ensureListening(): Promise<void> {
    if (this.options.referenceMediaPort === undefined || this.boundPort !== undefined || this.stopped) return Promise.resolve();
    this.attempt ??= this.listen(this.options.referenceMediaPort).finally(() => (this.attempt = undefined));
    return this.attempt;
  }

  async close(): Promise<void> {
    this.stopped = true;
    this.stopFollowing?.();
    await this.attempt;
    if (this.boundPort === undefined) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async listen(port: number): Promise<void> {
    try {
      await listenOnLoopback(this.server, port);
      this.boundPort = (this.server.address() as { port: number }).port;
      this.logger.info('reference media listener ready', { url: `http://${LOOPBACK_HOST}:${this.boundPort}/` });
    } catch (error) {
      this.logger.warn('reference media port unavailable: the reference frontend shows no videos, thumbnails or waveforms', {
        port,
        change: '--reference-media-port <n|off> or KEYFRAME_REFERENCE_MEDIA_PORT',
        error,
      });
      if (this.portTakenShown) return;
      this.portTakenShown = true;
      this.notifier.showModal({
        title: 'Videos cannot be shown',
        subtitle: `Port ${port} is in use`,
        description:
          `Keyframe serves videos, thumbnails and waveforms to this frontend on port ${port}, which another program uses. ` +
          'Close that program and reconnect, or start Keyframe with --reference-media-port <port> for a frontend that loads media from another port.',
        type: 'warning',
      });
    }
  }

  /** Never rejects: a failing handler is a 500 and an error in the log. */
  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      // DNS rebinding: a page of another site that resolves its name to 127.0.0.1 sends its own name as Host.
      if (!this.policy.isLocalHost(request, this.boundPort ?? 0)) return void plainAnswer(response, 403, 'Forbidden: unexpected Host');
      const url = URL.parse(request.url ?? '/', `http://${LOOPBACK_HOST}/`);
      const handler = url && this.routes.find(url.pathname);
      if (!url || !handler) return void plainAnswer(response, 404, 'Not Found');
      await handler(request, response, url);
    } catch (error) {
      this.logger.error('reference media request failed', { path: request.url, error });
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain' });
      response.end();
    }
  }
}
