// The bare `ws` baselines: a server that answers every message with fixed frames, and a connected
// pair that forwards frames from a feed to a client, the last hop a game event takes to the frontend.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

/** A `ws` server on loopback that answers any message with the given frames. */
export async function echoServer(frames: string[]): Promise<{ url: string; close(): Promise<void> }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  server.on('connection', (socket) =>
    socket.on('message', () => {
      for (const frame of frames) socket.send(frame);
    }),
  );
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

/** A `ws` server and its one client on loopback: `forward` sends from the server, `nextFrame` waits at the client. */
export interface ForwardingPair {
  forward(frame: string): void;
  nextFrame(): Promise<unknown>;
  close(): void;
}

export async function forwardingPair(): Promise<ForwardingPair> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const receiving = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  const [[sending]] = await Promise.all([once(server, 'connection') as Promise<[WebSocket]>, once(receiving, 'open')]);
  return {
    forward: (frame) => sending.send(frame),
    nextFrame: () => once(receiving, 'message'),
    close: () => {
      receiving.terminate();
      server.close();
    },
  };
}
