// The Chrome DevTools Protocol over `--remote-debugging-pipe`: JSON messages ended by a NUL byte, commands
// written to the browser's fd 3, answers and events read from its fd 4.
import type { Readable, Writable } from 'node:stream';

export type DevToolsParameters = Record<string, unknown>;
type EventListener = (parameters: DevToolsParameters, sessionId: string | undefined) => void;

interface Pending {
  method: string;
  resolve(result: DevToolsParameters): void;
  reject(error: Error): void;
}

export class DevToolsPipe {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, EventListener[]>();
  private buffered = '';
  private closed = false;
  private readonly closeListeners: (() => void)[] = [];

  constructor(
    private readonly toBrowser: Writable,
    fromBrowser: Readable,
  ) {
    fromBrowser.setEncoding('utf8');
    fromBrowser.on('data', (chunk: string) => this.receive(chunk));
    fromBrowser.on('close', () => this.close());
    fromBrowser.on('error', () => this.close());
    toBrowser.on('error', () => this.close());
  }

  /** Runs `method` (in the page session `sessionId`, else on the browser); rejects with the browser's error. */
  send(method: string, params: DevToolsParameters = {}, sessionId?: string): Promise<DevToolsParameters> {
    if (this.closed) return Promise.reject(new Error(`${method}: the browser is gone`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      this.toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId && { sessionId }) })}\0`);
    });
  }

  on(event: string, listener: EventListener): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  private receive(chunk: string): void {
    this.buffered += chunk;
    let end: number;
    while ((end = this.buffered.indexOf('\0')) >= 0) {
      const text = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 1);
      this.handle(JSON.parse(text) as Message);
    }
  }

  private handle(message: Message): void {
    if (message.id !== undefined) {
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) pending?.reject(new Error(`${pending.method}: ${message.error.message}`));
      else pending?.resolve(message.result ?? {});
      return;
    }
    if (message.method) for (const listener of this.listeners.get(message.method) ?? []) listener(message.params ?? {}, message.sessionId);
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const { method, reject } of this.pending.values()) reject(new Error(`${method}: the browser is gone`));
    this.pending.clear();
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}

interface Message {
  id?: number;
  method?: string;
  params?: DevToolsParameters;
  result?: DevToolsParameters;
  error?: { message: string };
  sessionId?: string;
}
