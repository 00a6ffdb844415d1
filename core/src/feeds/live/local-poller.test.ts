import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { PollInput, PollOptions } from '../../sdk/feed-types.js';
import { gameCertificates, type GameCertificates } from '../../testing/game-certificates.js';
import { freePort } from './free-port.js';
import { LocalPoller } from './local-poller.js';
import { MemoryLogger } from './memory-logger.js';
import { waitFor } from './wait-for.js';

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

async function start(server: Server, answer: Answer): Promise<number> {
  server.on('request', answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('LocalPoller', () => {
  const logger = new MemoryLogger();
  let server: Server;
  let poller: LocalPoller | undefined;
  let inputs: PollInput[];

  beforeEach(() => {
    server = createServer();
    inputs = [];
  });
  afterEach(async () => {
    await poller?.close();
    poller = undefined;
    if (server.listening) await stop(server);
  });

  function poll(
    url: string | (() => string),
    intervalMs: number,
    acceptSelfSignedCertificate?: boolean,
    more: Omit<PollOptions, 'url' | 'intervalMs'> = {},
  ): LocalPoller {
    poller = new LocalPoller(
      { feed: 'api', logger, emit: (input) => inputs.push(input) },
      { url, intervalMs, acceptSelfSignedCertificate, ...more },
    );
    return poller;
  }

  it('delivers the status and body of each poll, error statuses included', async () => {
    let count = 0;
    const port = await start(server, (_request, response) => {
      count++;
      response.writeHead(count === 2 ? 503 : 200).end(`{"count":${count}}`);
    });
    poll(`http://127.0.0.1:${port}/liveclientdata`, 20);
    await waitFor(() => inputs.length >= 3, 'three polls');
    expect(inputs.slice(0, 3)).to.deep.equal([
      { status: 200, body: '{"count":1}' },
      { status: 503, body: '{"count":2}' },
      { status: 200, body: '{"count":3}' },
    ]);
  });

  it('never overlaps polls when the game answers slower than the interval', async () => {
    let active = 0;
    let mostAtOnce = 0;
    const startedAt: number[] = [];
    const port = await start(server, (_request, response) => {
      startedAt.push(performance.now());
      mostAtOnce = Math.max(mostAtOnce, ++active);
      setTimeout(() => {
        active--;
        response.end('slow');
      }, 120);
    });
    poll(`http://127.0.0.1:${port}/`, 30);
    await waitFor(() => inputs.length >= 3, 'three slow polls');
    expect(mostAtOnce).to.equal(1);
    const gaps = startedAt.slice(1, 3).map((at, index) => at - (startedAt[index] ?? 0));
    for (const gap of gaps) expect(gap).to.be.within(115, 400);
  });

  it('keeps to the interval when the game answers quickly', async () => {
    const startedAt: number[] = [];
    const port = await start(server, (_request, response) => {
      startedAt.push(performance.now());
      response.end('fast');
    });
    poll(`http://127.0.0.1:${port}/`, 80);
    await waitFor(() => startedAt.length >= 4, 'four polls');
    // Measured where the requests arrive, so allow for network jitter; the first one also opens the connection.
    expect((startedAt[3] ?? 0) - (startedAt[1] ?? 0)).to.be.at.least(140);
  });

  it('delivers the error when nothing listens (the game is not running)', async () => {
    poll(`http://127.0.0.1:${await freePort()}/`, 20);
    await waitFor(() => inputs.length >= 1, 'a failed poll');
    expect(inputs[0])
      .to.have.property('error')
      .that.matches(/ECONNREFUSED/);
  });

  it('refuses a response over 8 MiB', async () => {
    const port = await start(server, (_request, response) => response.end(Buffer.alloc(9 * 1024 * 1024, 'x')));
    poll(`http://127.0.0.1:${port}/`, 1000);
    await waitFor(() => inputs.length >= 1, 'the oversized poll');
    expect(inputs[0]).to.deep.equal({ error: 'the response is larger than 8 MiB' });
  });

  it('asks a URL function before every request: a cursor moves, a URL off this machine is an error input', async () => {
    const paths: string[] = [];
    const port = await start(server, (request, response) => {
      paths.push(request.url!);
      response.end('[]');
    });
    // Asked once at the start to check it, then before each request; the fourth request goes astray.
    let asked = 0;
    poll(() => (++asked === 5 ? 'http://192.168.1.20:8111/hudmsg' : `http://127.0.0.1:${port}/hudmsg?lastEvt=${asked}`), 10);
    await waitFor(() => inputs.length >= 5, 'five polls');
    await poller!.close();
    expect(paths.slice(0, 4)).to.deep.equal(['/hudmsg?lastEvt=2', '/hudmsg?lastEvt=3', '/hudmsg?lastEvt=4', '/hudmsg?lastEvt=6']);
    expect(inputs[3])
      .to.have.property('error')
      .that.matches(/192\.168\.1\.20.* is not a local http\(s\) URL/);
  });

  it('refuses a URL that is not on this machine', () => {
    for (const url of ['http://example.com/', 'http://192.168.1.20:2999/', 'file:///etc/passwd', 'ftp://127.0.0.1/', 'not a url']) {
      expect(() => poll(url, 100), url).to.throw(/poll feed "api"/);
    }
  });

  it('sends the headers it is given, asking a function before every request', async () => {
    const received: (string | undefined)[][] = [];
    const port = await start(server, (request, response) => {
      received.push([request.headers.authorization, request.headers['x-game'] as string | undefined]);
      response.end('ok');
    });
    let token = 0;
    poll(`http://127.0.0.1:${port}/`, 10, false, { headers: () => ({ Authorization: `Bearer token-${++token}`, 'X-Game': 'test' }) });
    await waitFor(() => inputs.length >= 2, 'two polls');
    expect(received.slice(0, 2)).to.deep.equal([
      ['Bearer token-1', 'test'],
      ['Bearer token-2', 'test'],
    ]);
    expect(inputs.slice(0, 2)).to.deep.equal([
      { status: 200, body: 'ok' },
      { status: 200, body: 'ok' },
    ]);
  });

  it('refuses unusable headers and TLS options when opened, without showing a header value', () => {
    const url = 'http://127.0.0.1:2999/';
    const refusals: [Omit<PollOptions, 'url' | 'intervalMs'>, RegExp][] = [
      [{ headers: { 'Bad Name': 'x' } }, /"Bad Name" is not a header name/],
      [{ headers: { Authorization: 'secret-token\r\nX-Injected: 1' } }, /the value of header Authorization must be text on one line$/],
      [{ ca: 'not a certificate' }, /ca is not a PEM certificate/],
      [
        { ca: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', acceptSelfSignedCertificate: true },
        /either ca .* or acceptSelfSignedCertificate/,
      ],
      [{ servername: ' ' }, /servername must be a host name/],
    ];
    for (const [options, message] of refusals) {
      expect(() => poll(url, 100, undefined, options), JSON.stringify(options))
        .to.throw(/^poll feed "api": /)
        .with.property('message')
        .that.matches(message)
        .and.does.not.include('secret-token');
    }
  });

  it('delivers a headers function that fails as an error input, and requests nothing', async () => {
    let requests = 0;
    const port = await start(server, (_request, response) => {
      requests++;
      response.end('ok');
    });
    poll(`http://127.0.0.1:${port}/`, 10, false, {
      headers: () => {
        throw new Error('the lockfile is not there yet');
      },
    });
    await waitFor(() => inputs.length >= 2, 'two polls');
    expect(inputs[0]).to.deep.equal({ error: 'the lockfile is not there yet' });
    expect(requests).to.equal(0);
  });

  describe("with a certificate signed by the game's own authority", () => {
    let certificates: GameCertificates | undefined;

    before(async function () {
      certificates = await gameCertificates();
      if (!certificates) this.skip();
    });
    beforeEach(() => {
      server = createHttpsServer({ key: certificates!.key, cert: certificates!.cert });
    });

    it('trusts it with ca, and refuses it without', async () => {
      const port = await start(server, (_request, response) => response.end('from the game'));
      poll(`https://127.0.0.1:${port}/`, 20, false, { ca: certificates!.ca });
      await waitFor(() => inputs.length >= 1, 'an https poll');
      expect(inputs[0]).to.deep.equal({ status: 200, body: 'from the game' });
      await poller!.close();

      inputs = [];
      poll(`https://127.0.0.1:${port}/`, 20);
      await waitFor(() => inputs.length >= 1, 'an https poll');
      expect(inputs[0])
        .to.have.property('error')
        .that.matches(/verify the first certificate|local issuer|self[- ]signed/i);
    });

    it('checks the certificate against servername instead of the URL host', async () => {
      const port = await start(server, (_request, response) => response.end('rclient'));
      poll(`https://127.0.0.1:${port}/`, 20, false, { ca: certificates!.ca, servername: 'rclient' });
      await waitFor(() => inputs.length >= 1, 'an https poll');
      expect(inputs[0]).to.deep.equal({ status: 200, body: 'rclient' });
      await poller!.close();

      inputs = [];
      poll(`https://127.0.0.1:${port}/`, 20, false, { ca: certificates!.ca, servername: 'other.game' });
      await waitFor(() => inputs.length >= 1, 'an https poll');
      expect(inputs[0])
        .to.have.property('error')
        .that.matches(/other\.game/);
    });
  });

  describe('with a self-signed certificate', () => {
    let folder: string;
    let key: Buffer;
    let cert: Buffer;

    before(async function () {
      folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-poll-'));
      try {
        await promisify(execFile)('openssl', [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-subj',
          '/CN=localhost',
          '-days',
          '1',
          '-keyout',
          path.join(folder, 'key.pem'),
          '-out',
          path.join(folder, 'cert.pem'),
        ]);
      } catch (error) {
        console.warn(`      skipped: openssl could not make a test certificate (${(error as Error).message})`);
        this.skip();
      }
      key = await readFile(path.join(folder, 'key.pem'));
      cert = await readFile(path.join(folder, 'cert.pem'));
    });
    after(() => rm(folder, { recursive: true, force: true }));
    beforeEach(() => {
      server = createHttpsServer({ key, cert });
    });

    it('accepts it when asked to', async () => {
      const port = await start(server, (_request, response) => response.end('secure'));
      poll(`https://127.0.0.1:${port}/`, 20, true);
      await waitFor(() => inputs.length >= 1, 'an https poll');
      expect(inputs[0]).to.deep.equal({ status: 200, body: 'secure' });
    });

    it('refuses it otherwise', async () => {
      const port = await start(server, (_request, response) => response.end('secure'));
      poll(`https://127.0.0.1:${port}/`, 20);
      await waitFor(() => inputs.length >= 1, 'an https poll');
      expect(inputs[0])
        .to.have.property('error')
        .that.matches(/self[- ]signed/i);
    });
  });

  it('stops polling on close', async () => {
    let count = 0;
    const port = await start(server, (_request, response) => {
      count++;
      response.end('x');
    });
    poll(`http://127.0.0.1:${port}/`, 10);
    await waitFor(() => inputs.length >= 2, 'two polls');
    await poller?.close();
    const [deliveredAtClose, requestedAtClose] = [inputs.length, count];
    await delay(60);
    expect(inputs).to.have.length(deliveredAtClose);
    // A request already on its way may still reach the server; no new one starts.
    expect(count).to.be.at.most(requestedAtClose + 1);
  });
});
