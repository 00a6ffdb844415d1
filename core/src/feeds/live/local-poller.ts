// The live `poll` source: asks a game's local HTTP(S) endpoint for its state at a steady pace.
import { setTimeout as delay } from 'node:timers/promises';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { CancelableRequest, Response } from 'got';
import type { PollInput, PollOptions } from '../../sdk/feed-types.js';
import { HTTP_SCHEMES, loopbackUrl } from './loopback.js';
import { requestHeaders } from './request-headers.js';
import { tlsCheck, type TlsCheck } from './tls-options.js';
import type { LiveSource, SourceContext } from './types.js';

const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export class LocalPoller implements LiveSource {
  readonly ready = Promise.resolve();
  private readonly stopping = new AbortController();
  private readonly polling: Promise<void>;
  private request: CancelableRequest<Response<string>> | undefined;
  private readonly tls: TlsCheck;
  private readonly name: string;
  // The feed's own connections: a shared agent could hand it one whose certificate another feed checked.
  private readonly agent = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

  /**
   * Throws when the URL (the first one a function gives) is not a loopback http(s) URL, or the
   * headers or TLS options are unusable.
   */
  constructor(
    private readonly context: SourceContext<PollInput>,
    private readonly options: PollOptions,
  ) {
    this.name = `poll feed "${context.feed}"`;
    this.tls = tlsCheck(this.name, options);
    this.nextUrl();
    if (typeof options.headers !== 'function') requestHeaders(this.name, options.headers);
    this.polling = this.pollUntilStopped();
  }

  async close(): Promise<void> {
    this.stopping.abort();
    this.request?.cancel();
    await this.polling;
    this.agent.http.destroy();
    this.agent.https.destroy();
  }

  /** The next poll starts one interval after the previous one started, or as soon as a slow one ends. */
  private async pollUntilStopped(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      const startedAt = performance.now();
      const input = await this.pollOnce();
      if (this.stopping.signal.aborted) return;
      this.context.emit(input);
      const wait = startedAt + this.options.intervalMs - performance.now();
      await delay(Math.max(0, wait), undefined, { signal: this.stopping.signal }).catch(() => undefined);
    }
  }

  private nextUrl(): URL {
    const { url } = this.options;
    return loopbackUrl(this.name, typeof url === 'string' ? url : url(), HTTP_SCHEMES);
  }

  private async pollOnce(): Promise<PollInput> {
    let url: URL;
    let headers: Record<string, string>;
    try {
      url = this.nextUrl();
      headers = requestHeaders(this.name, this.options.headers);
    } catch (error) {
      return { error: (error as Error).message };
    }
    // Loaded at the first poll, not at start-up: importing got costs a tenth of a second of every start.
    const { default: got } = await import('got');
    // Closed while it loaded: no request, the loop ends on the stop.
    if (this.stopping.signal.aborted) return { error: 'stopped' };
    let tooLarge = false;
    const request = got(url, {
      retry: { limit: 0 },
      throwHttpErrors: false,
      // A redirect could lead off this machine.
      followRedirect: false,
      timeout: { request: this.options.timeoutMs ?? Math.max(this.options.intervalMs, 1000) },
      headers,
      agent: this.agent,
      https: {
        rejectUnauthorized: this.tls.rejectUnauthorized,
        ...(this.tls.ca === undefined ? {} : { certificateAuthority: this.tls.ca }),
        ...(this.tls.checkServerIdentity === undefined ? {} : { checkServerIdentity: this.tls.checkServerIdentity }),
      },
    });
    request.on('downloadProgress', ({ transferred }) => {
      if (transferred <= MAX_RESPONSE_BYTES) return;
      tooLarge = true;
      request.cancel();
    });
    this.request = request;
    try {
      const response = await request;
      return { status: response.statusCode, body: response.body };
    } catch (error) {
      if (tooLarge) return { error: `the response is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB` };
      return { error: error instanceof Error ? error.message : String(error) };
    } finally {
      this.request = undefined;
    }
  }
}
