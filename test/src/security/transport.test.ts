// Issue 18, transport: the attack surface of the service's one port. Another site framing the UI, tokens
// reaching the log, errors logged as `{}`, deeply nested commands, a client that stops reading, and
// malformed URLs, each tried against the real service as a child process.
import 'reflect-metadata';
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { openUi } from '../kit/browser.js';
import { mebibytes, sampleProcess } from '../kit/process-sampler.js';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';
import { clientFrame, OPCODE_CLOSE, openRawWebSocket, serverFrames } from '../kit/raw-websocket.js';

interface LoggedLine {
  level: string;
  scope: string;
  message: string;
  fields?: Record<string, unknown>;
}

/** A service of its own with its data folder, and its log file as parsed lines. */
class ServiceWithLog {
  private constructor(
    readonly data: TempFolder,
    readonly process: ServiceProcess,
  ) {}

  static async start(options: { legacyPort?: number | 'off' } = {}): Promise<ServiceWithLog> {
    const data = await createTempFolder();
    return new ServiceWithLog(data, await ServiceProcess.start({ dataFolder: data.path, legacyPort: options.legacyPort ?? 'off' }));
  }

  get url(): string {
    return this.process.url;
  }

  async logText(): Promise<string> {
    return readFile(path.join(this.data.path, 'logs', 'keyframe.log'), 'utf8').catch(() => '');
  }

  /** The complete lines so far: the service may be half-way through writing the last one. */
  async logLines(): Promise<LoggedLine[]> {
    const text = await this.logText();
    return text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LoggedLine);
  }

  async waitForLogLine(matches: (line: LoggedLine) => boolean, timeoutMs = 30_000): Promise<LoggedLine> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = (await this.logLines()).find(matches);
      if (line) return line;
      if (Date.now() > deadline) throw new Error(`no such log line within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    await this.process.stop();
    await this.data.remove();
  }
}

async function listenOnLoopback(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends `request` as raw bytes and returns the status line of the answer. */
async function rawHttpStatus(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let answer = '';
  socket.on('data', (chunk: Buffer) => {
    answer += chunk.toString();
  });
  socket.write(request);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to ${JSON.stringify(request)}`)), 5000);
    const check = () => {
      if (answer.includes('\r\n')) {
        clearTimeout(timer);
        resolve();
      }
    };
    socket.on('data', check);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  socket.destroy();
  return answer.slice(0, answer.indexOf('\r\n'));
}

const rejectionOf = (client: ProtocolClient) => client.next('CommandRejected', () => true, 15_000);

describe('security: transport', function () {
  this.timeout(60_000);

  describe('another site framing the UI (clickjacking)', () => {
    let service: ServiceWithLog;
    let hostile: Server;
    before(async () => {
      service = await ServiceWithLog.start();
    });
    after(async () => {
      hostile?.close();
      await service.stop();
    });

    it('answers every UI page and file with a CSP that forbids foreign frames and other hosts, and X-Frame-Options', async () => {
      const port = new URL(service.url).port;
      const asset = (await readdir(path.join(path.dirname(new URL(import.meta.url).pathname), '../../../ui/dist/assets')))[0]!;
      for (const [pathname, method] of [
        ['/', 'GET'],
        ['/index.html', 'HEAD'],
        [`/assets/${asset}`, 'GET'],
        ['/no/such/page', 'GET'],
        ['/', 'POST'],
      ] as const) {
        const response = await fetch(new URL(pathname, service.url), { method });
        const policy = response.headers.get('content-security-policy') ?? '';
        expect(policy, `${method} ${pathname}`).to.include("frame-ancestors 'self'");
        expect(policy).to.match(
          new RegExp(
            `connect-src 'self' http://127\\.0\\.0\\.1:${port} ws://127\\.0\\.0\\.1:${port} http://localhost:${port} ws://localhost:${port}(;|$)`,
          ),
        );
        expect(response.headers.get('x-frame-options')).to.equal('SAMEORIGIN');
        expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
        expect(response.headers.get('referrer-policy')).to.equal('no-referrer');
      }
    });

    it('shows a page on another origin that frames the UI nothing of it, and the frame never connects', async () => {
      hostile = createHttpServer((_request, response) => {
        response
          .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
          .end(
            `<!doctype html><h1>Win a prize: click the button</h1><iframe id="ui" src="${service.url}" width="1000" height="600"></iframe>`,
          );
      });
      const hostileUrl = `http://127.0.0.1:${await listenOnLoopback(hostile)}/`;
      const ui = await openUi({ url: hostileUrl }, { expectedConsoleErrors: [/frame-ancestors/] });
      try {
        const sockets: string[] = [];
        ui.page.on('websocket', (socket) => sockets.push(socket.url()));
        const frame = await (await ui.page.locator('#ui').elementHandle())!.contentFrame();
        // A blocked frame holds Chromium's error page, not the UI's document.
        expect(frame?.url()).to.not.equal(service.url);
        expect(await frame?.evaluate('document.getElementById("root") === null')).to.equal(true);
        // Had the UI loaded, it would have connected within milliseconds; give it a generous moment.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(sockets).to.deep.equal([]);
        expect((await service.logLines()).filter((line) => line.message === 'frontend connected')).to.deep.equal([]);
        expect(ui.consoleErrors).to.deep.equal([]);
      } finally {
        await ui.close();
      }
    });

    it('still loads and connects the UI itself under that policy, with no policy violation in the console', async () => {
      const ui = await openUi(service.process);
      try {
        await ui.page.locator('.status-dot--open').waitFor({ timeout: 20_000 });
        await ui.page.getByTestId('nav-settings').click();
        await ui.page.getByTestId('settings-recording').waitFor();
        await ui.screenshot('security-ui-under-csp');
        expect(ui.consoleErrors).to.deep.equal([]);
      } finally {
        await ui.close();
      }
    });
  });

  describe('sign-in tokens in the log', () => {
    it('keeps every fragment of a token out of the log file and stderr, whatever the Login frame looks like', async () => {
      const service = await ServiceWithLog.start();
      try {
        const token = `TOKEN${randomBytes(160).toString('hex')}`;
        const client = await ProtocolClient.connect(service.url);
        const frames = [
          // Cut off: the old log kept its first 200 characters, most of them token.
          `{"Method":"Login","Parameters":{"accessToken":"${token}"`,
          `{"Method":"Login","Parameters":{"access\\u0054oken":"${token}","refreshToken":"${token}"`,
          `{"Method":"\\u004cogin","Parameters":{"accessToken":"${token}"`,
          // V8 quotes the start of such text in its parse error.
          `{"Method":"Login","Parameters":{"accessToken":${token}}}`,
          `{"Method":"Login","Parameters":{"access\\u0054oken":"${token}","refreshToken":"r","extra":1}}`,
          `{"Method":"Login","Parameters":{"${token}":"a","refreshToken":"r"}}`,
          `{"Method":"UpdateSettings","Parameters":{"pass\\u0077ord":"${token}"`,
        ];
        for (const frame of frames) {
          client.sendRaw(frame);
          await rejectionOf(client);
        }
        await client.close();
        await service.process.stop();
        const written = `${await service.logText()}\n${service.process.printed}`;
        expect(written).to.include('"method":"Login"');
        const fragments = Array.from({ length: token.length - 8 }, (_, index) => token.slice(index, index + 8));
        expect(fragments.filter((fragment) => written.includes(fragment))).to.deep.equal([]);
      } finally {
        await service.stop();
      }
    });
  });

  describe('errors in the log', () => {
    it('writes a real error with its message and stack, not {}', async () => {
      const service = await ServiceWithLog.start();
      try {
        const socket = await openRawWebSocket(service.url);
        // Clients must mask their frames: ws reports this one as an error on the connection.
        socket.write(clientFrame('{"Method":"NewConnection"}', { masked: false }));
        const line = await service.waitForLogLine((each) => each.message === 'WebSocket error');
        const error = line.fields?.error as Record<string, unknown>;
        expect(error.message).to.match(/MASK must be set/);
        expect(error.stack).to.match(/MASK must be set[\s\S]*\bat\b/);
        socket.destroy();
      } finally {
        await service.stop();
      }
    });

    it('writes the code of a system error (a taken legacy port)', async () => {
      const blocker = createTcpServer();
      const takenPort = await listenOnLoopback(blocker);
      const service = await ServiceWithLog.start({ legacyPort: takenPort });
      try {
        const line = await service.waitForLogLine((each) => each.message.startsWith('legacy port unavailable'));
        expect(line.fields?.error).to.deep.include({ code: 'EADDRINUSE', name: 'Error' });
        expect((line.fields?.error as { message: string }).message).to.include(String(takenPort));
      } finally {
        await service.stop();
        blocker.close();
      }
    });
  });

  describe('deeply nested commands', () => {
    let service: ServiceWithLog;
    let client: ProtocolClient;
    before(async () => {
      service = await ServiceWithLog.start();
      client = await ProtocolClient.connect(service.url);
    });
    after(async () => {
      await client.close();
      await service.stop();
    });

    const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    for (const depth of [5000, 100_000]) {
      for (const [shape, nested] of [
        ['arrays', arrays(depth)],
        ['objects', objects(depth)],
      ] as const) {
        it(`refuses ${depth}-deep ${shape} in Parameters with a clear CommandRejected, and answers after`, async () => {
          for (const frame of [
            `{"Method":"UpdateSettings","Parameters":${nested}}`,
            `{"Method":"UpdateSettings","Parameters":{"a":${nested}}}`,
          ]) {
            client.skipReceived();
            client.sendRaw(frame);
            const rejection = await rejectionOf(client);
            expect(rejection).to.deep.include({ code: 'MalformedMessage', method: null });
            expect(rejection.message).to.match(/more than 64 levels deep/);
            client.sendRaw('{"Method":"NewConnection"}');
            await client.next('State');
          }
        });
      }
    }

    it('accepts nesting a real command needs', async () => {
      client.skipReceived();
      client.sendRaw(JSON.stringify({ Method: 'UpdateSettings', Parameters: { frameRate: 30 } }));
      await client.next('Settings', (settings) => settings.frameRate === 30);
      expect(service.process.isRunning).to.equal(true);
    });
  });

  describe('a client that stops reading', () => {
    it('closes that connection (1008) once its unsent output passes the cap, memory stays bounded, others are answered', async () => {
      const service = await ServiceWithLog.start();
      let hog: Socket | undefined;
      try {
        const pid = service.process.child.pid!;
        const before = (await sampleProcess(pid)).rssBytes;
        hog = await openRawWebSocket(service.url);
        // Each NewConnection is answered with the full Settings and State: ~20 MB of output that is never read.
        const command = clientFrame('{"Method":"NewConnection"}');
        hog.write(Buffer.concat(Array.from({ length: 20_000 }, () => command)));
        let peak = before;
        const sampling = setInterval(
          () =>
            void sampleProcess(pid).then(
              (sample) => {
                peak = Math.max(peak, sample.rssBytes);
              },
              () => undefined,
            ),
          100,
        );
        const began = Date.now();
        const closing = await service
          .waitForLogLine((line) => line.message === 'closing a frontend connection that stopped reading', 40_000)
          .finally(() => clearInterval(sampling));
        const secondsToClose = (Date.now() - began) / 1000;
        expect(closing.fields).to.deep.include({ code: 1008 });
        expect(
          peak - before,
          `RSS ${mebibytes(before)} before, ${mebibytes(peak)} at most under the client (closed after ${secondsToClose.toFixed(1)} s)`,
        ).to.be.below(200 * 1024 * 1024);

        // Reading now, the client finds the output up to the cap, then the close frame, then the end.
        const received: Buffer[] = [];
        hog.on('data', (chunk: Buffer) => received.push(chunk));
        hog.resume();
        await new Promise((resolve) => hog!.once('close', resolve));
        const last = serverFrames(Buffer.concat(received)).at(-1);
        expect(last?.opcode).to.equal(OPCODE_CLOSE);
        expect(last?.payload.readUInt16BE(0)).to.equal(1008);

        const other = await ProtocolClient.connect(service.url);
        const { state } = await other.handshake();
        expect(state.recording).to.equal(null);
        await other.close();
        expect(
          (await service.logLines()).filter((line) => line.message === 'closing a frontend connection that stopped reading'),
        ).to.have.length(1);
      } finally {
        hog?.destroy();
        await service.stop();
      }
    });
  });

  describe('malformed URLs', () => {
    let service: ServiceWithLog;
    before(async () => {
      service = await ServiceWithLog.start();
    });
    after(() => service.stop());

    it('answers malformed percent-escapes with 400 and logs no error for them', async () => {
      for (const pathname of ['/%E0%A4%A', '/%', '/assets/%ZZ.js', '/settings/%C0']) {
        for (const method of ['GET', 'HEAD']) {
          const response = await fetch(`${service.url.replace(/\/$/, '')}${pathname}`, { method });
          expect(response.status, `${method} ${pathname}`).to.equal(400);
        }
      }
      expect(await rawHttpStatus(service.url, `GET http://[ HTTP/1.1\r\nHost: ${new URL(service.url).host}\r\n\r\n`)).to.match(
        /^HTTP\/1\.1 4\d\d /,
      );
      expect((await fetch(service.url)).status).to.equal(200);
      expect((await service.logLines()).filter((line) => line.level === 'error')).to.deep.equal([]);
    });

    it('writes no debug lines (every command and its parameters) to the log file by default', async () => {
      const client = await ProtocolClient.connect(service.url);
      await client.handshake();
      await client.close();
      const lines = await service.logLines();
      expect(lines.filter((line) => line.level === 'debug')).to.deep.equal([]);
      expect(lines.some((line) => line.message === 'frontend connected')).to.equal(true);
    });
  });
});
