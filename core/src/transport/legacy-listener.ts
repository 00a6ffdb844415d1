// The legacy port (5000): frontends built for the old address get `AppVersion` and a close, so
// their version check reloads them onto the current address.
import { createServer, type Server } from 'node:http';
import { injectable } from 'tsyringe';
import { WebSocketServer } from 'ws';
import { CLOSE_PORT_MOVED } from '../protocol/wire-format.js';
import { ServiceOptions } from '../service-options.js';
import { appVersion } from '../support/app-version.js';
import { Logger } from '../support/logger.js';
import { listenOnLoopback } from './http-server.js';

@injectable()
export class LegacyListener {
  private readonly server: Server;
  private readonly sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly logger: Logger;
  private boundPort: number | undefined;

  constructor(
    private readonly options: ServiceOptions,
    logger: Logger,
  ) {
    this.logger = logger.child('legacy');
    this.server = createServer((_request, response) => response.writeHead(400).end());
    this.server.on('upgrade', (request, socket, head) => {
      this.sockets.handleUpgrade(request, socket, head, (client) => {
        client.on('error', () => client.terminate());
        client.send(JSON.stringify({ method: 'AppVersion', content: { version: appVersion() } }), () =>
          client.close(CLOSE_PORT_MOVED.code, CLOSE_PORT_MOVED.reason),
        );
      });
    });
  }

  /** The bound port, or undefined when disabled or the port was taken. */
  get port(): number | undefined {
    return this.boundPort;
  }

  /** A taken port is not fatal: only very old frontends need this listener. */
  async listen(): Promise<void> {
    if (this.options.legacyPort === undefined) return;
    try {
      await listenOnLoopback(this.server, this.options.legacyPort);
      this.boundPort = (this.server.address() as { port: number }).port;
      this.logger.info('legacy listener ready', { port: this.boundPort });
    } catch (error) {
      this.logger.warn('legacy port unavailable: old frontends will not be told to reload', { port: this.options.legacyPort, error });
    }
  }

  async close(): Promise<void> {
    if (this.boundPort === undefined) return;
    for (const client of this.sockets.clients) client.terminate();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
