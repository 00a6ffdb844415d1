// The socket feeds (tcp, webSocket, udp) on real loopback sockets behind the host's gate: nothing is
// handed over once deactivate has begun, and only the kinds a manifest declares open.
import { expect } from 'chai';
import { createSocket } from 'node:dgram';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { WebSocketServer, type WebSocket } from 'ws';
import { freePort } from '../feeds/live/free-port.js';
import { LiveFeeds } from '../feeds/live/live-feeds.js';
import { MemoryLogger } from '../feeds/live/memory-logger.js';
import { waitFor } from '../feeds/live/wait-for.js';
import type { Feed } from '../sdk/feed-types.js';
import { GatedFeeds } from './gated-feeds.js';
import { checkManifest, declaredFeedKinds, type IntegrationManifest } from './manifest.js';

/** A stand-in game: what the feed is opened with, and how the game sends one text. */
interface StandIn {
  open(feeds: GatedFeeds): Feed<unknown>;
  /** Resolves once the game can send (a client feed has connected). */
  connected(): Promise<void>;
  send(text: string): Promise<void>;
  stop(): Promise<void>;
}

const textOf = (input: unknown): string | undefined => {
  const fields = input as { line?: string; message?: string };
  return fields.line ?? fields.message;
};

async function tcpGame(): Promise<StandIn> {
  const sockets: Socket[] = [];
  const server = createTcpServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    open: (feeds) => feeds.tcp('console', { port, reconnect: { initialDelayMs: 10 } }),
    connected: () => waitFor(() => sockets.length > 0, 'the tcp connection'),
    send: async (text) => void sockets[0]!.write(`${text}\n`),
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function webSocketGame(): Promise<StandIn> {
  const sockets: WebSocket[] = [];
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (socket) => sockets.push(socket));
  await new Promise((resolve) => server.on('listening', resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    open: (feeds) => feeds.webSocket('events', { url, reconnect: { initialDelayMs: 10 } }),
    connected: () => waitFor(() => sockets.length > 0, 'the webSocket connection'),
    send: async (text) => sockets[0]!.send(text),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function udpGame(): Promise<StandIn> {
  const port = await freePort();
  const sender = createSocket('udp4');
  return {
    open: (feeds) => feeds.udp('telemetry', { port }),
    connected: async () => undefined,
    send: (text) => new Promise((resolve) => sender.send(text, port, '127.0.0.1', () => resolve())),
    stop: () => new Promise((resolve) => sender.close(resolve)),
  };
}

describe('GatedFeeds with the socket feeds', () => {
  const games = { tcp: tcpGame, webSocket: webSocketGame, udp: udpGame };

  for (const [kind, makeGame] of Object.entries(games)) {
    it(`${kind}: hands no input over once deactivate has begun`, async () => {
      const game = await makeGame();
      const gated = new GatedFeeds(new LiveFeeds({ logger: new MemoryLogger() }), { key: 'testGame', heard: () => undefined });
      try {
        gated.open();
        const handled: string[] = [];
        let release!: () => void;
        const busy = new Promise<void>((resolve) => (release = resolve));
        const feed = game.open(gated);
        feed.onInput(async (input) => {
          const text = textOf(input);
          if (text === undefined) return;
          handled.push(text);
          if (text === 'first') await busy;
        });
        await feed.ready;
        await game.connected();
        await game.send('first');
        await waitFor(() => handled.length === 1, 'the first input');

        // deactivate() is about to run: the gate shuts while the first input is still being handled.
        const shutting = gated.shut();
        await game.send('second');
        await delay(40);
        release();
        await shutting;
        await delay(20);
        expect(handled).to.deep.equal(['first']);
      } finally {
        await gated.closeAll();
        await game.stop();
      }
    });
  }

  it('opens only the socket feeds a manifest declares', () => {
    const check = checkManifest({
      apiVersion: 1,
      integration: {
        key: 'racingSim',
        displayName: 'Racing Sim',
        events: ['Kill'],
        games: [{ name: 'Racing Sim', executables: ['sim.exe'] }],
        feeds: ['udp:20777', 'webSocket'],
      },
    });
    expect(check).to.have.property('manifest');
    const manifest = (check as { manifest: IntegrationManifest }).manifest;
    expect([...declaredFeedKinds(manifest)]).to.deep.equal(['udp', 'webSocket']);
    const gated = new GatedFeeds(new LiveFeeds({ logger: new MemoryLogger() }), {
      key: 'racingSim',
      declaredKinds: declaredFeedKinds(manifest),
      heard: () => undefined,
    });
    expect(() => gated.tcp('console', { port: 27015 })).to.throw(
      'racingSim opened a tcp feed ("console") that its manifest does not declare: add "tcp" to keyframe.integration.feeds in its package.json',
    );
    expect(checkManifest({ ...manifest, integration: { ...manifest.integration, feeds: ['serial:COM3'] } })).to.have.property('problem');
  });
});
