import { expect } from 'chai';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { TcpInput, TcpOptions } from '../../sdk/feed-types.js';
import { freePort } from './free-port.js';
import { MemoryLogger } from './memory-logger.js';
import { TcpClient } from './tcp-client.js';
import { waitFor } from './wait-for.js';

/** A game's console port: keeps its connections, and what they sent. */
class GameConsole {
  readonly sockets: Socket[] = [];
  received = '';
  private readonly server: Server = createServer((socket) => {
    this.sockets.push(socket);
    socket.on('data', (chunk) => (this.received += chunk.toString('utf8')));
    socket.on('error', () => undefined);
  });

  async listen(port = 0): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  write(text: string | Buffer): void {
    this.sockets.at(-1)!.write(text);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (this.server.listening) await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('TcpClient', () => {
  const logger = new MemoryLogger();
  let game: GameConsole;
  let client: TcpClient | undefined;
  let inputs: TcpInput[];

  beforeEach(() => {
    game = new GameConsole();
    inputs = [];
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await game.stop();
  });

  function connect(options: TcpOptions): TcpClient {
    client = new TcpClient(
      { feed: 'console', logger, emit: (input) => inputs.push(input) },
      { reconnect: { initialDelayMs: 10, maxDelayMs: 40 }, ...options },
    );
    return client;
  }

  it('delivers complete lines after the connection opens, and sends its greeting', async () => {
    const port = await game.listen();
    connect({ port, sendOnOpen: () => ['login secret\n', 'subscribe kills\n'] });
    await waitFor(() => game.sockets.length === 1 && inputs.length === 1, 'the connection');
    game.write('Player killed Bot\r\nround ');
    game.write('over\npartial');
    await waitFor(() => inputs.length === 3, 'two lines');
    expect(inputs).to.deep.equal([{ connection: 'opened' }, { line: 'Player killed Bot' }, { line: 'round over' }]);
    await waitFor(() => game.received === 'login secret\nsubscribe kills\n', 'the greeting');
  });

  it('decodes the encoding it is given', async () => {
    const port = await game.listen();
    connect({ port, encoding: 'latin1', host: 'localhost' });
    await waitFor(() => inputs.length === 1, 'the connection');
    game.write(Buffer.from('Zoë a tué Bot\n', 'latin1'));
    await waitFor(() => inputs.length === 2, 'a line');
    expect(inputs[1]).to.deep.equal({ line: 'Zoë a tué Bot' });
  });

  it('waits for a game that is not there yet, and reconnects after it restarts', async () => {
    const port = await freePort();
    connect({ port });
    await delay(60);
    expect(inputs, 'failed attempts are not inputs').to.deep.equal([]);
    expect(logger.messages('info')).to.include(`tcp feed "console" cannot connect yet; retrying: connect ECONNREFUSED 127.0.0.1:${port}`);

    await game.listen(port);
    await waitFor(() => inputs.length === 1, 'the first connection');
    game.write('first life\n');
    await waitFor(() => inputs.length === 2, 'a line');
    await game.stop();
    await waitFor(() => inputs.length === 3, 'the connection to close');

    game = new GameConsole();
    await game.listen(port);
    await waitFor(() => inputs.length === 4, 'the second connection');
    game.write('second life\n');
    await waitFor(() => inputs.length === 5, 'a line');
    expect(inputs).to.deep.equal([
      { connection: 'opened' },
      { line: 'first life' },
      { connection: 'closed' },
      { connection: 'opened' },
      { line: 'second life' },
    ]);
  });

  it('tells why a connection was lost when it was not closed cleanly', async () => {
    const port = await game.listen();
    connect({ port });
    await waitFor(() => inputs.length === 1, 'the connection');
    game.sockets[0]!.resetAndDestroy();
    await waitFor(() => inputs.length === 2, 'the connection to close');
    expect(inputs[1]).to.deep.equal({ connection: 'closed', error: 'read ECONNRESET' });
  });

  it('refuses a host that is not this machine, and a port that is not one', () => {
    for (const host of ['192.168.1.20', 'example.com', '0.0.0.0', '127.0.0.1.nip.io']) {
      expect(() => connect({ port: 27015, host }), host).to.throw(`tcp feed "console": host "${host}" is not this machine`);
    }
    for (const port of [0, 70000, 1.5])
      expect(() => connect({ port }), String(port)).to.throw(/tcp feed "console": port .* is not a port number/);
  });

  it('stops connecting on close, and closes its connection', async () => {
    const port = await game.listen();
    connect({ port });
    await waitFor(() => inputs.length === 1, 'the connection');
    const socket = game.sockets[0]!;
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await client!.close();
    await closed;
    await delay(60);
    expect(game.sockets).to.have.length(1);
    expect(inputs).to.deep.equal([{ connection: 'opened' }]);
  });
});
