import { expect } from 'chai';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import type { WireDialect } from '../protocol/settings.js';
import { Logger } from '../support/logger.js';
import { ConnectionHub } from './connection-hub.js';

describe('ConnectionHub dialects', () => {
  let server: WebSocketServer;
  const hub = new ConnectionHub(new Logger([]));
  const heard: WireDialect[] = [];
  hub.onAttached((dialect) => heard.push(dialect));

  before(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
  });
  after(() => {
    hub.close();
    server.close();
  });

  /** A client whose server side the hub takes as the active connection in `dialect`; resolves with its first event. */
  async function firstEventIn(dialect: WireDialect, send: () => void): Promise<unknown> {
    const accepted = once(server, 'connection') as Promise<[WebSocket]>;
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const [socket] = await accepted;
    await once(client, 'open');
    hub.attach(socket, { dialect, statePatches: false });
    const message = once(client, 'message') as Promise<[Buffer]>;
    send();
    const [data] = await message;
    client.close();
    return JSON.parse(data.toString());
  }

  it("sends each event in the active connection's dialect and tells listeners which dialect connected", async () => {
    const download = () => hub.send('CaptureEngineDownloadProgress', { progress: 10, status: 'downloading' });
    expect(await firstEventIn('reference', download)).to.deep.equal({
      method: 'ObsDownloadProgress',
      content: { progress: 10, status: 'downloading' },
    });
    expect(await firstEventIn('spec', download)).to.deep.equal({
      method: 'CaptureEngineDownloadProgress',
      content: { progress: 10, status: 'downloading' },
    });
    expect(heard).to.deep.equal(['reference', 'spec']);
  });
});
