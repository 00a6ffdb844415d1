import { expect } from 'chai';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { WebSocketServer, type WebSocket } from 'ws';
import type { WebSocketInput, WebSocketOptions } from '../../sdk/feed-types.js';
import { freePort } from './free-port.js';
import { MemoryLogger } from './memory-logger.js';
import { gameCertificates, type GameCertificates } from '../../testing/game-certificates.js';
import { waitFor } from './wait-for.js';
import { WebSocketClient } from './websocket-client.js';

/** A game's local event socket: keeps its connections, their handshake headers and what they sent. */
class GameEventSocket {
  readonly sockets: WebSocket[] = [];
  readonly handshakes: IncomingHttpHeaders[] = [];
  readonly received: string[] = [];
  private readonly webSocketServer: WebSocketServer;

  constructor(private readonly server: Server = createHttpServer()) {
    this.webSocketServer = new WebSocketServer({ server, handleProtocols: (protocols) => [...protocols][0] ?? false });
    this.webSocketServer.on('connection', (socket, request) => {
      this.sockets.push(socket);
      this.handshakes.push(request.headers);
      socket.on('message', (data) => this.received.push(String(data)));
    });
  }

  async listen(port = 0): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  send(message: string | Buffer): void {
    this.sockets.at(-1)!.send(message);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    await new Promise((resolve) => this.webSocketServer.close(resolve));
    this.server.closeAllConnections();
    if (this.server.listening) await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('WebSocketClient', () => {
  const logger = new MemoryLogger();
  let game: GameEventSocket;
  let client: WebSocketClient | undefined;
  let inputs: WebSocketInput[];

  beforeEach(() => {
    game = new GameEventSocket();
    inputs = [];
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await game.stop();
  });

  function connect(options: WebSocketOptions): WebSocketClient {
    client = new WebSocketClient(
      { feed: 'events', logger, emit: (input) => inputs.push(input) },
      { reconnect: { initialDelayMs: 10, maxDelayMs: 40 }, ...options },
    );
    return client;
  }

  it('delivers text and binary messages, with its headers, protocol and greeting', async () => {
    const port = await game.listen();
    connect({
      url: `ws://127.0.0.1:${port}/events`,
      headers: { Authorization: 'Basic cmlvdDpzZWNyZXQ=' },
      protocols: ['wamp'],
      sendOnOpen: ['[5, "OnJsonApiEvent"]'],
    });
    await waitFor(() => inputs.length === 1 && game.sockets.length === 1, 'the connection');
    game.send('{"event":"kill"}');
    game.send(Buffer.from('{"event":"death"}'));
    await waitFor(() => inputs.length === 3, 'two messages');
    expect(inputs).to.deep.equal([{ connection: 'opened' }, { message: '{"event":"kill"}' }, { message: '{"event":"death"}' }]);
    expect(game.handshakes[0]).to.include({ authorization: 'Basic cmlvdDpzZWNyZXQ=', 'sec-websocket-protocol': 'wamp' });
    expect(game.handshakes[0]).to.not.have.property('origin');
    await waitFor(() => game.received.length === 1, 'the greeting');
    expect(game.received).to.deep.equal(['[5, "OnJsonApiEvent"]']);
  });

  it('waits for a game that is not there yet, and reconnects after it restarts, asking the URL each time', async () => {
    const port = await freePort();
    let asked = 0;
    connect({ url: () => `ws://localhost:${port}/?attempt=${++asked}` });
    await delay(60);
    expect(inputs, 'failed attempts are not inputs').to.deep.equal([]);

    await game.listen(port);
    await waitFor(() => inputs.length === 1, 'the first connection');
    game.send('first life');
    await waitFor(() => inputs.length === 2, 'a message');
    game.sockets[0]!.close(4001, 'match over');
    await waitFor(() => inputs.length === 3, 'the connection to close');
    await game.stop();

    game = new GameEventSocket();
    await game.listen(port);
    await waitFor(() => inputs.length === 4, 'the second connection');
    game.send('second life');
    await waitFor(() => inputs.length === 5, 'a message');
    expect(inputs).to.deep.equal([
      { connection: 'opened' },
      { message: 'first life' },
      { connection: 'closed', error: 'closed with code 4001: match over' },
      { connection: 'opened' },
      { message: 'second life' },
    ]);
    expect(asked, 'asked before every attempt').to.be.above(3);
  });

  it('refuses a URL that is not on this machine, and a URL function that strays is not connected to', async () => {
    for (const url of ['ws://192.168.1.20:8080/', 'wss://example.com/', 'http://127.0.0.1:8080/', 'not a url']) {
      expect(() => connect({ url }), url).to.throw(/^webSocket feed "events": /);
    }
    const port = await game.listen();
    let asked = 0;
    connect({ url: () => (++asked === 1 ? `ws://127.0.0.1:${port}/` : 'ws://192.168.1.20:8080/') });
    await delay(60);
    expect(game.sockets).to.have.length(0);
    expect(logger.messages('info')).to.include(
      'webSocket feed "events" cannot connect yet; retrying: webSocket feed "events": ws://192.168.1.20:8080/ is not a local ws(s) URL; only 127.0.0.1, localhost, [::1] may be reached',
    );
  });

  it('stops connecting on close, and closes its connection', async () => {
    const port = await game.listen();
    connect({ url: `ws://127.0.0.1:${port}/` });
    await waitFor(() => inputs.length === 1 && game.sockets.length === 1, 'the connection');
    const closed = new Promise((resolve) => game.sockets[0]!.on('close', resolve));
    await client!.close();
    await closed;
    await delay(60);
    expect(game.sockets).to.have.length(1);
    expect(inputs).to.deep.equal([{ connection: 'opened' }]);
  });

  describe("over TLS, with the game's own authority", () => {
    let certificates: GameCertificates | undefined;

    before(async function () {
      certificates = await gameCertificates();
      if (!certificates) this.skip();
    });
    beforeEach(async () => {
      await game.stop();
      game = new GameEventSocket(createHttpsServer({ key: certificates!.key, cert: certificates!.cert }));
    });

    it('connects with ca, and not without', async () => {
      const port = await game.listen();
      connect({ url: `wss://127.0.0.1:${port}/`, ca: certificates!.ca });
      await waitFor(() => inputs.length === 1, 'the connection');
      await client!.close();

      inputs = [];
      connect({ url: `wss://127.0.0.1:${port}/` });
      await delay(60);
      expect(inputs).to.deep.equal([]);
      expect(game.sockets).to.have.length(1);
    });
  });
});
