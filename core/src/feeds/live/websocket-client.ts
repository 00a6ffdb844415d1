// The live `webSocket` source: a client of a WebSocket the game serves at this machine (a local
// event socket), delivering its messages as text, reconnecting while the feed is open.
import { WebSocket, type RawData } from 'ws';
import type { WebSocketInput, WebSocketOptions } from '../../sdk/feed-types.js';
import { loopbackUrl, WEBSOCKET_SCHEMES } from './loopback.js';
import { openingMessages, ReconnectingClient } from './reconnecting-client.js';
import { requestHeaders } from './request-headers.js';
import { tlsCheck, type TlsCheck } from './tls-options.js';
import type { LiveSource, SourceContext } from './types.js';

const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
const HANDSHAKE_TIMEOUT_MS = 5000;

export class WebSocketClient implements LiveSource {
  readonly ready = Promise.resolve();
  private readonly client: ReconnectingClient;
  private readonly name: string;
  private readonly tls: TlsCheck;

  /** Throws when the URL (the first one a function gives) is not a loopback ws(s) URL, or the headers or TLS options are unusable. */
  constructor(
    private readonly context: SourceContext<WebSocketInput>,
    private readonly options: WebSocketOptions,
  ) {
    this.name = `webSocket feed "${context.feed}"`;
    this.tls = tlsCheck(this.name, options);
    this.nextUrl();
    if (typeof options.headers !== 'function') requestHeaders(this.name, options.headers);
    this.client = new ReconnectingClient({
      name: this.name,
      feed: context.feed,
      logger: context.logger,
      ...(options.reconnect ? { reconnect: options.reconnect } : {}),
      emit: (change) => context.emit(change),
      attempt: (opened, signal) => this.attempt(opened, signal),
    });
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private nextUrl(): URL {
    const { url } = this.options;
    return loopbackUrl(this.name, typeof url === 'string' ? url : url(), WEBSOCKET_SCHEMES);
  }

  /** Throws (a failed attempt) when the URL a function gives is not loopback or the headers are unusable. */
  private attempt(opened: () => void, signal: AbortSignal): Promise<string | undefined> {
    const url = this.nextUrl();
    const headers = requestHeaders(this.name, this.options.headers);
    const greeting = openingMessages(this.options.sendOnOpen);
    return new Promise((resolve) => {
      const socket = new WebSocket(url, [...(this.options.protocols ?? [])], {
        headers,
        ...this.tls,
        // A redirect could lead off this machine.
        followRedirects: false,
        handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
        maxPayload: MAX_MESSAGE_BYTES,
      });
      let failure: string | undefined;
      const stop = () => socket.terminate();
      signal.addEventListener('abort', stop, { once: true });
      socket.on('open', () => {
        opened();
        for (const message of greeting) socket.send(message);
      });
      socket.on('message', (data: RawData) => this.context.emit({ message: textOf(data) }));
      socket.on('error', (error) => (failure ??= error.message));
      socket.on('close', (code: number, reason: Buffer) => {
        signal.removeEventListener('abort', stop);
        const clean = code === 1000 || code === 1005;
        resolve(failure ?? (clean ? undefined : `closed with code ${code}${reason.length > 0 ? `: ${reason.toString('utf8')}` : ''}`));
      });
    });
  }
}

/** A message as text; a binary one is decoded as UTF-8 (games send JSON either way). */
function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}
