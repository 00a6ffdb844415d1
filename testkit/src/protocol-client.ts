// A frontend for tests: connects to the service's WebSocket, sends typed commands, awaits events,
// and checks every event it receives against the protocol schemas.
import type { CommandName, CommandParametersMap, EventContentMap, EventName } from '@keyframe/core/protocol';
import { Events, describeProblems } from '@keyframe/core/protocol';
import { WebSocket } from 'ws';

export interface ReceivedEvent<E extends EventName = EventName> {
  method: E;
  content: EventContentMap[E];
}

export interface CloseInfo {
  code: number;
  reason: string;
}

interface Waiter {
  matches: (event: ReceivedEvent) => boolean;
  resolve: (event: ReceivedEvent) => void;
}

export interface ConnectOptions {
  origin?: string;
  timeoutMs?: number;
}

export class ProtocolClient {
  /** Every event received, in order. */
  readonly events: ReceivedEvent[] = [];
  /** Events whose method is unknown or whose content does not match its schema. */
  readonly schemaViolations: string[] = [];
  readonly closed: Promise<CloseInfo>;
  private readonly waiters = new Set<Waiter>();
  private cursor = 0;

  private constructor(private readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    socket.on('message', (data) => this.receive(data.toString()));
  }

  static async connect(url: string, options: ConnectOptions = {}): Promise<ProtocolClient> {
    const socket = new WebSocket(url.replace(/^http/, 'ws'), options.origin ? { origin: options.origin } : {});
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no connection to ${url} within ${options.timeoutMs ?? 5000} ms`)),
        options.timeoutMs ?? 5000,
      );
      socket.once('open', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once('unexpected-response', (_request, response) => {
        clearTimeout(timer);
        reject(Object.assign(new Error(`upgrade refused with HTTP ${response.statusCode}`), { statusCode: response.statusCode }));
      });
    });
    return new ProtocolClient(socket);
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  send<M extends CommandName>(
    method: M,
    ...parameters: {} extends CommandParametersMap[M] ? [CommandParametersMap[M]?] : [CommandParametersMap[M]]
  ): void {
    const [values] = parameters;
    this.socket.send(JSON.stringify(values === undefined ? { Method: method } : { Method: method, Parameters: values }));
  }

  /** Sends anything at all: malformed JSON, binary data, `ping`. */
  sendRaw(data: string | Buffer, options: { binary?: boolean } = {}): void {
    this.socket.send(data, { binary: options.binary ?? Buffer.isBuffer(data) });
  }

  /** The next event of that method (after those already awaited) that satisfies `predicate`. */
  next<E extends EventName>(
    method: E,
    predicate: (content: EventContentMap[E]) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<EventContentMap[E]> {
    const matches = (event: ReceivedEvent) => event.method === method && predicate(event.content as EventContentMap[E]);
    for (let index = this.cursor; index < this.events.length; index++) {
      if (matches(this.events[index]!)) {
        this.cursor = index + 1;
        return Promise.resolve(this.events[index]!.content as EventContentMap[E]);
      }
    }
    this.cursor = this.events.length;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(
          new Error(
            `no ${method} event within ${timeoutMs} ms; received: ${this.events.map((event) => event.method).join(', ') || 'nothing'}`,
          ),
        );
      }, timeoutMs);
      const waiter: Waiter = {
        matches,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event.content as EventContentMap[E]);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** The contents of every event of that method received so far, in order. */
  all<E extends EventName>(method: E): EventContentMap[E][] {
    return this.events.filter((event) => event.method === method).map((event) => event.content as EventContentMap[E]);
  }

  /** The content of the last event of that method received so far. */
  latest<E extends EventName>(method: E): EventContentMap[E] | undefined {
    return this.events.findLast((event) => event.method === method)?.content as EventContentMap[E] | undefined;
  }

  /** Resolves when the latest `method` event satisfies `predicate`: the one already received, or a coming one. */
  until<E extends EventName>(
    method: E,
    predicate: (content: EventContentMap[E]) => boolean,
    timeoutMs = 5000,
  ): Promise<EventContentMap[E]> {
    const latest = this.latest(method);
    if (latest !== undefined && predicate(latest)) return Promise.resolve(latest);
    return this.next(method, predicate, timeoutMs);
  }

  /** Events received from now on are awaited by `next`; older ones are skipped. */
  skipReceived(): void {
    this.cursor = this.events.length;
  }

  /** Sends `NewConnection` and waits for its answer up to `AppVersion`. */
  async handshake(): Promise<{ settings: EventContentMap['Settings']; state: EventContentMap['State'] }> {
    this.skipReceived();
    this.send('NewConnection');
    const settings = await this.next('Settings');
    const state = await this.next('State');
    await this.next('AppVersion');
    return { settings, state };
  }

  close(): Promise<CloseInfo> {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) this.socket.close();
    return this.closed;
  }

  private receive(text: string): void {
    let event: ReceivedEvent;
    try {
      event = JSON.parse(text) as ReceivedEvent;
    } catch {
      this.schemaViolations.push(`not JSON: ${text.slice(0, 100)}`);
      return;
    }
    const definition = Events[event.method];
    if (!definition) {
      this.schemaViolations.push(`unknown event ${String(event.method)}`);
    } else {
      const problems = describeProblems(definition.content, event.content);
      if (problems.length > 0) this.schemaViolations.push(`${event.method}: ${problems.join('; ')}`);
    }
    this.events.push(event);
    for (const waiter of this.waiters) {
      if (waiter.matches(event)) {
        this.waiters.delete(waiter);
        this.cursor = this.events.length;
        waiter.resolve(event);
        return;
      }
    }
  }
}
