import { expect } from 'chai';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import type { State } from '../protocol/index.js';
import type { WireDialect } from '../protocol/settings.js';
import { initialState } from '../state/state-publisher.js';
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

describe('ConnectionHub Incremental State', () => {
  let server: WebSocketServer;
  const hub = new ConnectionHub(new Logger([]));

  before(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
  });
  after(() => {
    hub.close();
    server.close();
  });

  /** A client attached as the active connection; `frames` holds what it received. */
  async function connect(statePatches: boolean): Promise<{ frames: Array<{ method: string; content: unknown }>; close(): void }> {
    const accepted = once(server, 'connection') as Promise<[WebSocket]>;
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const [socket] = await accepted;
    await once(client, 'open');
    hub.attach(socket, { dialect: 'spec', statePatches });
    const frames: Array<{ method: string; content: unknown }> = [];
    client.on('message', (data) => frames.push(JSON.parse(data.toString()) as { method: string; content: unknown }));
    return { frames, close: () => client.close() };
  }
  const received = (frames: unknown[], count: number) =>
    new Promise<void>((resolve) => {
      const check = () => (frames.length >= count ? resolve() : setTimeout(check, 5));
      check();
    });

  it('sends a patch only from the State the connection holds: a full State first, then StatePatch numbered from 1', async () => {
    const first: State = initialState('/cache');
    const second: State = { ...first, currentFolderSizeGb: 2 };
    const third: State = { ...second, currentFolderSizeGb: 3 };
    const patching = await connect(true);
    const patch = (value: number) => () => [{ op: 'replace' as const, path: '/currentFolderSizeGb', value }];
    hub.sendState(second, { revision: 2, since: { revision: 1, patch: patch(2) } });
    hub.sendState(third, { revision: 3, since: { revision: 2, patch: patch(3) } });
    hub.sendState(third, { revision: 4, since: { revision: 3, patch: () => [] } });
    await received(patching.frames, 2);
    expect(patching.frames.map((frame) => frame.method)).to.deep.equal(['State', 'StatePatch']);
    expect(patching.frames[1]!.content).to.deep.equal({ sequence: 1, patch: [{ op: 'replace', path: '/currentFolderSizeGb', value: 3 }] });
    patching.close();

    const full = await connect(false);
    hub.sendState(third, { revision: 5, since: { revision: 4, patch: patch(3) } });
    await received(full.frames, 1);
    expect(full.frames).to.deep.equal([{ method: 'State', content: third }]);
    full.close();
  });
});
