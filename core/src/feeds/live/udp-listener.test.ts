import { expect } from 'chai';
import { createSocket, type Socket } from 'node:dgram';
import { setTimeout as delay } from 'node:timers/promises';
import type { UdpInput, UdpOptions } from '../../sdk/feed-types.js';
import { freePort } from './free-port.js';
import { MemoryLogger } from './memory-logger.js';
import { UdpListener } from './udp-listener.js';
import { waitFor } from './wait-for.js';

describe('UdpListener', () => {
  let logger: MemoryLogger;
  let game: Socket;
  let listeners: UdpListener[];
  let inputs: UdpInput[];

  beforeEach(async () => {
    logger = new MemoryLogger();
    listeners = [];
    inputs = [];
    game = createSocket('udp4');
    await new Promise<void>((resolve) => game.bind(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    await Promise.all(listeners.map((listener) => listener.close()));
    game.close();
  });

  async function listen(options: Omit<UdpOptions, 'port'>, port?: number): Promise<{ listener: UdpListener; port: number }> {
    const chosen = port ?? (await freePort());
    const listener = new UdpListener({ feed: 'telemetry', logger, emit: (input) => inputs.push(input) }, { port: chosen, ...options });
    listeners.push(listener);
    return { listener, port: chosen };
  }

  const send = (port: number, payload: string | Buffer) =>
    new Promise<void>((resolve, reject) => game.send(payload, port, '127.0.0.1', (error) => (error ? reject(error) : resolve())));

  it('delivers each datagram as text, with its sender', async () => {
    const { listener, port } = await listen({});
    await listener.ready;
    await send(port, '{"speed":212.5,"lap":3}');
    await send(port, 'gear 4');
    await waitFor(() => inputs.length === 2, 'two datagrams');
    const from = `127.0.0.1:${game.address().port}`;
    expect(inputs).to.deep.equal([
      { message: '{"speed":212.5,"lap":3}', from },
      { message: 'gear 4', from },
    ]);
  });

  it('delivers binary telemetry as base64, and drops datagrams over the size limit with a warning', async () => {
    const { listener, port } = await listen({ encoding: 'base64', maxMessageBytes: 8 });
    await listener.ready;
    await send(port, Buffer.from([0, 1, 2, 255]));
    await send(port, Buffer.alloc(9, 7));
    await send(port, Buffer.from([9]));
    await waitFor(() => inputs.length === 2, 'two datagrams');
    expect(inputs.map((input) => input.message)).to.deep.equal(['AAEC/w==', 'CQ==']);
    expect(logger.messages('warn')).to.deep.equal(['udp feed "telemetry" dropped a datagram of 9 bytes (over 8)']);
  });

  it('rejects ready when the port is in use, and frees it on close', async () => {
    const { listener: first, port } = await listen({});
    await first.ready;
    const { listener: second } = await listen({}, port);
    await second.ready.then(
      () => expect.fail('a second listener on the same port'),
      (error: Error) =>
        expect(error.message).to.equal(
          `udp feed "telemetry" cannot listen on 127.0.0.1:${port}: port ${port} is in use by another program`,
        ),
    );
    expect(logger.messages('error')).to.have.length(1);
    await first.close();
    await send(port, 'after close');
    await delay(40);
    expect(inputs).to.deep.equal([]);
    const { listener: third } = await listen({}, port);
    await third.ready;
  });

  it('refuses unusable options when opened', async () => {
    for (const options of [{ port: 0 }, { port: 70000 }, { port: 20777, maxMessageBytes: 0 }, { port: 20777, encoding: 'hex' }]) {
      expect(
        () => new UdpListener({ feed: 'telemetry', logger, emit: () => undefined }, options as UdpOptions),
        JSON.stringify(options),
      ).to.throw(/^udp feed "telemetry": /);
    }
  });
});
