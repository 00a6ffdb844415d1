// The one active frontend connection. A new connection replaces the previous one, which is closed
// with a code and reason that say so; events always go to the newest.
import { injectable } from 'tsyringe';
import { WebSocket } from 'ws';
import type { EventContent, EventName } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import type { EventSink } from './event-sink.js';

export const CLOSE_REPLACED = { code: 4000, reason: 'Replaced by a newer connection' } as const;
export const CLOSE_SHUTDOWN = { code: 1001, reason: 'Keyframe is shutting down' } as const;

@injectable()
export class ConnectionHub implements EventSink {
  private active: WebSocket | undefined;
  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger.child('transport');
  }

  get isConnected(): boolean {
    return this.active?.readyState === WebSocket.OPEN;
  }

  /** Bytes queued on the active connection that have not been written to the network yet. */
  get bufferedAmount(): number {
    return this.active?.bufferedAmount ?? 0;
  }

  attach(socket: WebSocket): void {
    const previous = this.active;
    this.active = socket;
    if (previous && previous.readyState <= WebSocket.OPEN) {
      this.logger.info('a new frontend connected: closing the previous connection');
      previous.close(CLOSE_REPLACED.code, CLOSE_REPLACED.reason);
    }
    socket.on('close', () => {
      if (this.active === socket) this.active = undefined;
    });
  }

  send<E extends EventName>(method: E, content: EventContent<E>): void {
    const socket = this.active;
    if (socket?.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ method, content }), (error) => {
      if (error) this.logger.warn('could not send an event', { method, error });
    });
  }

  close(): void {
    this.active?.close(CLOSE_SHUTDOWN.code, CLOSE_SHUTDOWN.reason);
    this.active = undefined;
  }
}
