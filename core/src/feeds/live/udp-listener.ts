// The live `udp` source: datagrams the game sends to 127.0.0.1:<port> (racing sims' telemetry).
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import type { UdpInput, UdpOptions } from '../../sdk/feed-types.js';
import { checkPort } from './loopback.js';
import type { LiveSource, SourceContext } from './types.js';

/** The largest payload a UDP datagram over IPv4 can carry. */
const MAX_DATAGRAM_BYTES = 65507;

export class UdpListener implements LiveSource {
  readonly ready: Promise<void>;
  private readonly socket: Socket;
  private readonly name: string;
  private readonly maxMessageBytes: number;
  private dropped = 0;
  private closing: Promise<void> | undefined;

  /** Throws when the port, encoding or size limit is unusable; `ready` rejects when the port is in use. */
  constructor(
    private readonly context: SourceContext<UdpInput>,
    private readonly options: UdpOptions,
  ) {
    this.name = `udp feed "${context.feed}"`;
    checkPort(this.name, options.port);
    if (options.encoding !== undefined && options.encoding !== 'utf8' && options.encoding !== 'base64') {
      throw new Error(`${this.name}: encoding must be 'utf8' or 'base64'`);
    }
    this.maxMessageBytes = options.maxMessageBytes ?? MAX_DATAGRAM_BYTES;
    if (!Number.isInteger(this.maxMessageBytes) || this.maxMessageBytes < 1) {
      throw new Error(`${this.name}: maxMessageBytes must be a positive whole number`);
    }
    this.socket = createSocket('udp4');
    this.socket.on('message', (message, sender) => this.receive(message, sender));
    this.ready = this.bind();
    // Logged here, so nobody has to await `ready` for a failure to be seen.
    this.ready.catch((error: Error) => context.logger.error(error.message, { feed: context.feed }));
  }

  close(): Promise<void> {
    return (this.closing ??= this.closeSocket());
  }

  private async closeSocket(): Promise<void> {
    if (
      !(await this.ready.then(
        () => true,
        () => false,
      ))
    )
      return;
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }

  private bind(): Promise<void> {
    const { port } = this.options;
    return new Promise((resolve, reject) => {
      let bound = false;
      this.socket.on('error', (error: NodeJS.ErrnoException) => {
        if (bound) {
          this.context.logger.error(`${this.name} on port ${port} failed: ${error.message}`, { feed: this.context.feed });
          return;
        }
        const reason = error.code === 'EADDRINUSE' ? `port ${port} is in use by another program` : error.message;
        reject(new Error(`${this.name} cannot listen on 127.0.0.1:${port}: ${reason}`));
      });
      this.socket.bind({ port, address: '127.0.0.1', exclusive: true }, () => {
        bound = true;
        resolve();
      });
    });
  }

  private receive(message: Buffer, sender: RemoteInfo): void {
    // Bound to 127.0.0.1, only this machine can reach us; checked anyway, as the listeners do.
    if (!sender.address.startsWith('127.')) return;
    if (message.length > this.maxMessageBytes) {
      const log = this.dropped++ === 0 ? this.context.logger.warn : this.context.logger.debug;
      log.call(this.context.logger, `${this.name} dropped a datagram of ${message.length} bytes (over ${this.maxMessageBytes})`, {
        feed: this.context.feed,
        dropped: this.dropped,
      });
      return;
    }
    this.context.emit({ message: message.toString(this.options.encoding ?? 'utf8'), from: `${sender.address}:${sender.port}` });
  }
}
