// The live `httpPush` source: an HTTP listener on 127.0.0.1 that games post their state to.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { HttpPushInput, HttpPushOptions, HttpPushRefusal } from '../../sdk/feed-types.js';
import { isLoopbackHostHeader } from './loopback.js';
import { pushTokenOf, tokensMatch } from './push-token-check.js';
import type { LiveSource, SourceContext } from './types.js';

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export class HttpPushListener implements LiveSource {
  readonly ready: Promise<void>;
  private readonly server: Server;
  private readonly maxBodyBytes: number;
  private readonly refusals: Record<HttpPushRefusal['reason'], number> = { browser: 0, token: 0 };

  constructor(
    private readonly context: SourceContext<HttpPushInput>,
    private readonly options: HttpPushOptions,
  ) {
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.server = createServer((request, response) => this.answer(request, response));
    this.ready = this.listen();
    // Logged here, so nobody has to await `ready` for a failure to be seen.
    this.ready.catch((error: Error) => context.logger.error(error.message, { feed: context.feed }));
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private listen(): Promise<void> {
    const { port } = this.options;
    return new Promise((resolve, reject) => {
      this.server.on('error', (error: NodeJS.ErrnoException) => {
        if (this.server.listening) {
          this.context.logger.error(`httpPush feed "${this.context.feed}" on port ${port} failed: ${error.message}`, {
            feed: this.context.feed,
          });
          return;
        }
        const reason = error.code === 'EADDRINUSE' ? `port ${port} is in use by another program` : error.message;
        reject(new Error(`httpPush feed "${this.context.feed}" cannot listen on 127.0.0.1:${port}: ${reason}`));
      });
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    // A web page that rebinds its own name to 127.0.0.1 still sends that name: refuse it.
    const host = request.headers.host;
    if (host !== undefined && !isLoopbackHostHeader(host)) {
      request.resume();
      response.writeHead(403).end();
      return;
    }
    // A game's HTTP client sends neither; every browser request does (fetch, no-cors, form posts):
    // a web page must not post fake kills while the game is recorded.
    if (isFromBrowser(request)) {
      request.resume();
      response.writeHead(403).end();
      this.refuse('browser', { origin: request.headers.origin });
      return;
    }
    void this.readBody(request).then(
      (body) => {
        if (body === undefined) {
          response.writeHead(413).end();
          return;
        }
        if (request.method !== 'POST') {
          response.writeHead(200).end();
          return;
        }
        const { token } = this.options;
        if (token !== undefined && !tokensMatch(pushTokenOf(body), token)) {
          response.writeHead(403).end();
          this.refuse('token', { userAgent: request.headers['user-agent'] });
          return;
        }
        response.writeHead(200).end();
        this.context.emit(postInput(request, token === undefined ? body : body.replaceAll(token, 'REDACTED')));
      },
      () => response.destroy(),
    );
  }

  /** Counts and reports a refusal; logs the first of each reason as a warning, the rest at debug (a page may send thousands). */
  private refuse(reason: HttpPushRefusal['reason'], fields: Record<string, unknown>): void {
    const count = ++this.refusals[reason];
    const what = reason === 'browser' ? 'a request from a web page' : 'a push without the right token';
    const log = count === 1 ? this.context.logger.warn : this.context.logger.debug;
    log.call(this.context.logger, `httpPush feed "${this.context.feed}" refused ${what}`, {
      feed: this.context.feed,
      port: this.options.port,
      count,
      ...fields,
    });
    this.options.onRefused?.({ reason, count });
  }

  /** The body as text, or `undefined` when it is over the limit (the rest is read and thrown away). */
  private readBody(request: IncomingMessage): Promise<string | undefined> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= this.maxBodyBytes) chunks.push(chunk);
        else chunks.length = 0;
      });
      request.on('end', () => resolve(size <= this.maxBodyBytes ? Buffer.concat(chunks).toString('utf8') : undefined));
      request.on('error', reject);
    });
  }
}

function isFromBrowser(request: IncomingMessage): boolean {
  return request.headers.origin !== undefined || Object.keys(request.headers).some((name) => name.startsWith('sec-fetch-'));
}

function postInput(request: IncomingMessage, body: string): HttpPushInput {
  const input: HttpPushInput = { method: 'POST', path: request.url ?? '/', body };
  const userAgent = request.headers['user-agent'];
  if (userAgent !== undefined) input.userAgent = userAgent;
  return input;
}
