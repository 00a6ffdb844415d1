import { expect } from 'chai';
import { request } from 'node:http';
import { createServer } from 'node:net';
import type { HttpPushInput, HttpPushOptions, HttpPushRefusal } from '../../sdk/feed-types.js';
import { freePort } from './free-port.js';
import { HttpPushListener } from './http-push-listener.js';
import { MemoryLogger } from './memory-logger.js';
import { waitFor } from './wait-for.js';

interface Sent {
  method?: string;
  path?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

function send(port: number, { method = 'POST', path = '/', body, headers = {} }: Sent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('HttpPushListener', () => {
  let port: number;
  let logger: MemoryLogger;
  let inputs: HttpPushInput[];
  let listener: HttpPushListener;

  beforeEach(async () => {
    port = await freePort();
    logger = new MemoryLogger();
    inputs = [];
  });
  afterEach(() => listener.close());

  let refusals: HttpPushRefusal[];

  function listen(maxBodyBytes?: number, more: Omit<HttpPushOptions, 'port' | 'maxBodyBytes'> = {}): Promise<void> {
    refusals = [];
    listener = new HttpPushListener(
      { feed: 'gsi', logger, emit: (input) => inputs.push(input) },
      { port, maxBodyBytes, onRefused: (refusal) => refusals.push(refusal), ...more },
    );
    return listener.ready;
  }

  it('delivers POST bodies in order and answers 200 with an empty body', async () => {
    await listen();
    for (const round of [1, 2, 3]) {
      const answer = await send(port, { path: '/state?x=1', body: `{"round":${round}}`, headers: { 'user-agent': 'Valve/Steam' } });
      expect(answer).to.deep.equal({ status: 200, body: '' });
    }
    await waitFor(() => inputs.length === 3, 'three posts');
    expect(inputs.map((input) => input.body)).to.deep.equal(['{"round":1}', '{"round":2}', '{"round":3}']);
    expect(inputs[0]).to.deep.equal({ method: 'POST', path: '/state?x=1', body: '{"round":1}', userAgent: 'Valve/Steam' });
  });

  it('answers other methods with 200 but delivers nothing for them', async () => {
    await listen();
    expect((await send(port, { method: 'GET' })).status).to.equal(200);
    await send(port, { body: 'after' });
    await waitFor(() => inputs.length === 1, 'the post');
    expect(inputs.map((input) => input.method)).to.deep.equal(['POST']);
  });

  it('refuses a body over the limit with 413 and does not deliver it', async () => {
    await listen(1000);
    expect((await send(port, { body: Buffer.alloc(1001, 'x') })).status).to.equal(413);
    expect((await send(port, { body: Buffer.alloc(1000, 'y') })).status).to.equal(200);
    await waitFor(() => inputs.length === 1, 'the post within the limit');
    expect(inputs[0]?.body).to.equal('y'.repeat(1000));
  });

  it('refuses a Host that is not a loopback name with 403 (DNS rebinding)', async () => {
    await listen();
    expect((await send(port, { body: 'evil', headers: { host: `attacker.example:${port}` } })).status).to.equal(403);
    expect((await send(port, { body: 'local', headers: { host: `localhost:${port}` } })).status).to.equal(200);
    await waitFor(() => inputs.length === 1, 'the loopback post');
    expect(inputs[0]?.body).to.equal('local');
  });

  describe('requests from web pages', () => {
    const TOKEN = 'abcdef0123456789abcdef0123456789';
    const body = JSON.stringify({ player: { kills: 1 }, auth: { token: TOKEN } });

    it('refuses a request with an Origin or any Sec-Fetch-* header with 403, before reading its body', async () => {
      await listen(1000, { token: TOKEN });
      const browserHeaders: Record<string, string>[] = [
        { origin: 'http://127.0.0.1:8080', 'content-type': 'text/plain' },
        { origin: 'null' },
        { 'sec-fetch-mode': 'no-cors' },
        { 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'document' },
      ];
      for (const headers of browserHeaders) {
        expect((await send(port, { body, headers })).status, JSON.stringify(headers)).to.equal(403);
      }
      // Over the size limit yet 403, not 413: the body was never read.
      expect((await send(port, { body: Buffer.alloc(2000, 'x'), headers: { origin: 'http://evil.example' } })).status).to.equal(403);
      expect((await send(port, { body })).status, "the game's own push").to.equal(200);
      await waitFor(() => inputs.length === 1, "the game's push");
      expect(refusals).to.deep.equal([1, 2, 3, 4, 5].map((count) => ({ reason: 'browser', count })));
    });

    it('delivers a push with the headers CS2 sends (recorded from build 14108)', async () => {
      await listen(undefined, { token: TOKEN });
      const headers = {
        'user-agent': 'Valve/Steam HTTP Client 1.0 (730)',
        'content-type': 'application/json',
        host: `localhost:${port}`,
        accept: 'text/html,*/*;q=0.9',
        'accept-encoding': 'gzip,identity,*;q=0',
        'accept-charset': 'ISO-8859-1,utf-8,*;q=0.7',
      };
      expect((await send(port, { body, headers })).status).to.equal(200);
      await waitFor(() => inputs.length === 1, 'the push');
      expect(refusals).to.deep.equal([]);
    });

    it('logs the first refusal as a warning and the rest at debug, never with the body', async () => {
      await listen(undefined, { token: TOKEN });
      for (let index = 0; index < 3; index++) await send(port, { body, headers: { origin: 'http://127.0.0.1:9' } });
      expect(logger.messages('warn')).to.deep.equal(['httpPush feed "gsi" refused a request from a web page']);
      expect(logger.messages('debug')).to.have.length(2);
      expect(JSON.stringify(logger.entries)).to.not.include(TOKEN);
    });
  });

  describe('with a token', () => {
    const TOKEN = 'abcdef0123456789abcdef0123456789';
    const withAuth = (auth: unknown) => JSON.stringify({ provider: { appid: 730 }, auth });

    it('delivers a push carrying it, with the token taken out of the body', async () => {
      await listen(undefined, { token: TOKEN });
      expect((await send(port, { body: withAuth({ token: TOKEN }) })).status).to.equal(200);
      await waitFor(() => inputs.length === 1, 'the push');
      expect(JSON.parse(inputs[0]!.body)).to.deep.equal({ provider: { appid: 730 }, auth: { token: 'REDACTED' } });
      expect(refusals).to.deep.equal([]);
    });

    it('refuses a wrong, missing or malformed token with 403, counting each', async () => {
      await listen(undefined, { token: TOKEN });
      const bodies = [
        withAuth({ token: 'abcdef0123456789abcdef012345678' }),
        withAuth({ token: `${TOKEN}x` }),
        withAuth({ token: TOKEN.toUpperCase() }),
        withAuth(undefined),
        withAuth({}),
        withAuth({ token: 1 }),
        withAuth(TOKEN),
        `{"auth":{"token":"${TOKEN}"}`,
        '',
      ];
      for (const body of bodies) expect((await send(port, { body })).status, body).to.equal(403);
      expect((await send(port, { body: withAuth({ token: TOKEN }) })).status).to.equal(200);
      await waitFor(() => inputs.length === 1, 'the right push');
      expect(refusals).to.deep.equal(bodies.map((_, index) => ({ reason: 'token', count: index + 1 })));
      expect(logger.messages('warn')).to.deep.equal(['httpPush feed "gsi" refused a push without the right token']);
    });

    it('still answers other methods with 200 and delivers nothing for them', async () => {
      await listen(undefined, { token: TOKEN });
      expect((await send(port, { method: 'GET' })).status).to.equal(200);
      expect(refusals).to.deep.equal([]);
    });
  });

  it('frees the port on close', async () => {
    await listen();
    await listener.close();
    const other = createServer();
    await new Promise<void>((resolve, reject) => other.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => other.close(resolve));
  });

  it('rejects ready, and logs, when the port is in use', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      await listen().then(
        () => expect.fail('ready should reject'),
        (error: Error) => expect(error.message).to.include(`port ${port} is in use by another program`),
      );
      expect(logger.messages('error')[0]).to.include(`port ${port} is in use by another program`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
