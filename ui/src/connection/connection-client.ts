// The one connection to the backend: commands out, events in (re-dispatched on `window`),
// reconnection, keep-alive, and a status the UI can watch.
import { CLOSE_REPLACED, type CommandName, type CommandParametersMap } from '@keyframe/core/protocol';
import { hostSender } from './host-bridge';
import { IncrementalState } from './incremental-state';
import { dispatchServerEvent, parseServerEvent } from './server-event';

export type ConnectionStatus = 'connecting' | 'open' | 'closed' | 'replaced';

const RECONNECT_DELAY_MS = 3_000;
const PING_AFTER_IDLE_MS = 30_000;
/** Nothing came back after a ping either: the socket is dead without having closed. */
const DEAD_AFTER_IDLE_MS = 60_000;

/** Parameters may be left out only for commands whose parameters are all optional. */
type ParametersArgument<M extends CommandName> = {} extends CommandParametersMap[M]
  ? [parameters?: CommandParametersMap[M]]
  : [parameters: CommandParametersMap[M]];

export class ConnectionClient {
  readonly url: string;
  private socket: WebSocket | undefined;
  private status: ConnectionStatus = 'connecting';
  private readonly statusListeners = new Set<() => void>();
  private started = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private keepAliveTimer: ReturnType<typeof setTimeout> | undefined;
  private lastReceivedAt = 0;
  private pingSent = false;

  constructor(url: string) {
    this.url = url;
  }

  /** Opens the connection once; later calls do nothing. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.connect();
  }

  /** Connects now: after being replaced, or to retry without waiting. */
  reconnect(): void {
    this.started = true;
    this.connect();
  }

  readonly getStatus = (): ConnectionStatus => this.status;

  readonly subscribeStatus = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };

  /** Sends a command; false when it could not be sent (no host bridge and the socket is not open). */
  send<M extends CommandName>(method: M, ...[parameters]: ParametersArgument<M>): boolean {
    const message = JSON.stringify(parameters === undefined ? { Method: method } : { Method: method, Parameters: parameters });
    const sendThroughHost = hostSender();
    if (sendThroughHost) {
      sendThroughHost(message);
      return true;
    }
    return this.sendFrame(message);
  }

  private sendFrame(text: string): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(text);
    return true;
  }

  private connect(): void {
    clearTimeout(this.reconnectTimer);
    this.dropSocket();
    this.setStatus('connecting');
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url);
    } catch {
      this.handleLostConnection();
      return;
    }
    this.socket = socket;
    const incremental = new IncrementalState();
    // Every handler checks it still belongs to the current socket: a dropped one may still fire.
    socket.addEventListener('open', () => {
      if (socket !== this.socket) return;
      this.markReceived();
      this.setStatus('open');
      this.send('NewConnection');
    });
    socket.addEventListener('message', ({ data }: MessageEvent<unknown>) => {
      if (socket !== this.socket) return;
      this.markReceived();
      const received = typeof data === 'string' ? parseServerEvent(data) : undefined;
      const event = received && incremental.receive(received);
      if (event === 'resync') this.send('RequestState');
      else if (event) dispatchServerEvent(event);
    });
    socket.addEventListener('close', ({ code }) => {
      if (socket !== this.socket) return;
      this.socket = undefined;
      clearTimeout(this.keepAliveTimer);
      if (code === CLOSE_REPLACED.code) this.setStatus('replaced');
      else this.handleLostConnection();
    });
  }

  private handleLostConnection(): void {
    this.setStatus('closed');
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), RECONNECT_DELAY_MS);
  }

  private dropSocket(): void {
    const socket = this.socket;
    this.socket = undefined;
    clearTimeout(this.keepAliveTimer);
    socket?.close();
  }

  private markReceived(): void {
    this.lastReceivedAt = Date.now();
    this.pingSent = false;
    clearTimeout(this.keepAliveTimer);
    this.keepAliveTimer = setTimeout(() => this.checkKeepAlive(), PING_AFTER_IDLE_MS);
  }

  private checkKeepAlive(): void {
    const idleMs = Date.now() - this.lastReceivedAt;
    if (idleMs >= DEAD_AFTER_IDLE_MS) {
      this.dropSocket();
      this.handleLostConnection();
      return;
    }
    // The ping goes over the socket even with a host bridge: it is this socket's liveness that counts.
    if (!this.pingSent) this.pingSent = this.sendFrame('ping');
    this.keepAliveTimer = setTimeout(() => this.checkKeepAlive(), DEAD_AFTER_IDLE_MS - idleMs);
  }

  private setStatus(status: ConnectionStatus): void {
    if (status === this.status) return;
    this.status = status;
    for (const listener of this.statusListeners) listener();
  }
}
