// The live `tcp` source: a client of a TCP port the game listens on at this machine (a console or
// event stream), delivering its complete lines, reconnecting while the feed is open.
import { connect } from 'node:net';
import type { TcpInput, TcpOptions } from '../../sdk/feed-types.js';
import { LineSplitter } from './line-splitter.js';
import { checkPort, loopbackHost } from './loopback.js';
import { openingMessages, ReconnectingClient } from './reconnecting-client.js';
import type { LiveSource, SourceContext } from './types.js';

export class TcpClient implements LiveSource {
  readonly ready = Promise.resolve();
  private readonly client: ReconnectingClient;

  /** Throws when the host is not this machine, or the port or framing is unusable. */
  constructor(
    private readonly context: SourceContext<TcpInput>,
    private readonly options: TcpOptions,
  ) {
    const name = `tcp feed "${context.feed}"`;
    const host = loopbackHost(name, options.host);
    checkPort(name, options.port);
    if ((options.framing ?? 'lines') !== 'lines') throw new Error(`${name}: framing must be 'lines'`);
    this.client = new ReconnectingClient({
      name,
      feed: context.feed,
      logger: context.logger,
      ...(options.reconnect ? { reconnect: options.reconnect } : {}),
      emit: (change) => context.emit(change),
      attempt: (opened, signal) => this.attempt(host, opened, signal),
    });
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private attempt(host: string, opened: () => void, signal: AbortSignal): Promise<string | undefined> {
    // Asked before connecting: a function that throws fails this attempt, not the process.
    const greeting = openingMessages(this.options.sendOnOpen);
    return new Promise((resolve) => {
      const lines = new LineSplitter(this.options.encoding ?? 'utf8');
      const socket = connect({ host, port: this.options.port });
      let failure: string | undefined;
      const stop = () => socket.destroy();
      signal.addEventListener('abort', stop, { once: true });
      socket.on('connect', () => {
        opened();
        for (const text of greeting) socket.write(text);
      });
      socket.on('data', (chunk: Buffer) => {
        for (const line of lines.push(chunk)) this.context.emit({ line });
      });
      socket.on('error', (error) => (failure = error.message));
      socket.on('close', () => {
        signal.removeEventListener('abort', stop);
        resolve(failure);
      });
    });
  }
}
