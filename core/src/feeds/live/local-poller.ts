// The live `poll` source: asks a game's local HTTP(S) endpoint for its state at a steady pace.
import { setTimeout as delay } from 'node:timers/promises';
import got, { type CancelableRequest, type Response } from 'got';
import type { PollInput, PollOptions } from '../../sdk/feed-types.js';
import { LOOPBACK_HOSTNAMES } from './loopback.js';
import type { LiveSource, SourceContext } from './types.js';

const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export class LocalPoller implements LiveSource {
  readonly ready = Promise.resolve();
  private readonly stopping = new AbortController();
  private readonly polling: Promise<void>;
  private request: CancelableRequest<Response<string>> | undefined;

  /** Throws when the URL (the first one a function gives) is not a loopback http(s) URL. */
  constructor(
    private readonly context: SourceContext<PollInput>,
    private readonly options: PollOptions,
  ) {
    this.nextUrl();
    this.polling = this.pollUntilStopped();
  }

  async close(): Promise<void> {
    this.stopping.abort();
    this.request?.cancel();
    await this.polling;
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
    return loopbackUrl(this.context.feed, typeof url === 'string' ? url : url());
  }

  private async pollOnce(): Promise<PollInput> {
    let url: URL;
    try {
      url = this.nextUrl();
    } catch (error) {
      return { error: (error as Error).message };
    }
    let tooLarge = false;
    const request = got(url, {
      retry: { limit: 0 },
      throwHttpErrors: false,
      // A redirect could lead off this machine.
      followRedirect: false,
      timeout: { request: this.options.timeoutMs ?? Math.max(this.options.intervalMs, 1000) },
      https: { rejectUnauthorized: !this.options.acceptSelfSignedCertificate },
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

function loopbackUrl(feed: string, text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`poll feed "${feed}": "${text}" is not a URL`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !LOOPBACK_HOSTNAMES.has(url.hostname)) {
    throw new Error(
      `poll feed "${feed}": ${url.href} is not a local http(s) URL; only ${[...LOOPBACK_HOSTNAMES].join(', ')} may be polled`,
    );
  }
  return url;
}
