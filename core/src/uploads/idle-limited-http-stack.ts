// tus-js-client's Node HTTP stack with a limit on silence: a request whose connection stays without a
// byte either way for `idleMs` (a host that drops what it is sent, or accepts and never answers) fails
// with `NoAnswer`, which the transfer retries and reports, instead of waiting for the system's own
// timeouts (minutes).
import type { ClientRequest } from 'node:http';
import type * as tus from 'tus-js-client';

/** The host let a request go unanswered for `idleMs`. */
export class NoAnswer extends Error {
  constructor(readonly idleMs: number) {
    super(`no answer in ${Math.round(idleMs / 1000)} s`);
    this.name = 'NoAnswer';
  }
}

export class IdleLimitedHttpStack implements tus.HttpStack {
  private readonly inner: tus.HttpStack;

  /** `Stack` is tus-js-client's `DefaultHttpStack`, passed in so that the module is loaded only where an upload runs. */
  constructor(
    Stack: typeof tus.DefaultHttpStack,
    private readonly idleMs: number,
  ) {
    // Node's `timeout` request option also counts while the connection is being made.
    this.inner = new Stack({ timeout: idleMs });
  }

  createRequest(method: string, url: string): tus.HttpRequest {
    return new IdleLimitedRequest(this.inner.createRequest(method, url), this.idleMs);
  }

  getName(): string {
    return 'IdleLimitedHttpStack';
  }
}

class IdleLimitedRequest implements tus.HttpRequest {
  constructor(
    private readonly inner: tus.HttpRequest,
    private readonly idleMs: number,
  ) {}

  getMethod(): string {
    return this.inner.getMethod();
  }
  getURL(): string {
    return this.inner.getURL();
  }
  setHeader(header: string, value: string): void {
    this.inner.setHeader(header, value);
  }
  getHeader(header: string): string | undefined {
    return this.inner.getHeader(header);
  }
  setProgressHandler(handler: (bytesSent: number) => void): void {
    this.inner.setProgressHandler(handler);
  }
  abort(): Promise<void> {
    return this.inner.abort();
  }
  getUnderlyingObject(): unknown {
    return this.inner.getUnderlyingObject();
  }

  send(body: unknown): Promise<tus.HttpResponse> {
    const sent = this.inner.send(body);
    // The default stack makes its ClientRequest as `send` is called: the 'timeout' it emits ends it here.
    const request = this.inner.getUnderlyingObject() as ClientRequest | null;
    request?.once('timeout', () => request.destroy(new NoAnswer(this.idleMs)));
    return sent;
  }
}
