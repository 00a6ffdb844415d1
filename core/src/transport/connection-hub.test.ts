import { expect } from 'chai';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import type { State } from '../protocol/index.js';
import type { WireDialect } from '../protocol/settings.js';
import { initialState } from '../state/state-publisher.js';
import { Logger } from '../support/logger.js';
import { ConnectionHub, MAX_UNSENT_BYTES, type ConnectionTerms } from './connection-hub.js';

type Frame = { method: string; content: unknown };

describe('ConnectionHub', () => {
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

  /** A client whose server side the hub takes as the active connection; `frames` holds what it receives. */
  async function attached(
    terms: ConnectionTerms,
  ): Promise<{ socket: WebSocket; frames: Frame[]; received(count: number): Promise<void>; close(): void }> {
    const accepted = once(server, 'connection') as Promise<[WebSocket]>;
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const [socket] = await accepted;
    await once(client, 'open');
    hub.attach(socket, terms);
    const frames: Frame[] = [];
    client.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
    // Each 'message' pushes its frame before `once` below hears it: the listener above was added first.
    const received = async (count: number) => {
      while (frames.length < count) await once(client, 'message');
    };
    return { socket, frames, received, close: () => client.close() };
  }

  /** The first event a connection in `dialect` receives after `send`. */
  async function firstEventIn(dialect: WireDialect, send: () => void): Promise<Frame> {
    const client = await attached({ dialect, statePatches: false });
    send();
    await client.received(1);
    client.close();
    return client.frames[0]!;
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

  it('sends a patch only from the State the connection holds: a full State first, then StatePatch numbered from 1', async () => {
    const first: State = initialState('/cache');
    const second: State = { ...first, currentFolderSizeGb: 2 };
    const third: State = { ...second, currentFolderSizeGb: 3 };
    const patch = (value: number) => () => [{ op: 'replace' as const, path: '/currentFolderSizeGb', value }];
    const patching = await attached({ dialect: 'spec', statePatches: true });
    hub.sendState(second, { revision: 2, since: { revision: 1, patch: patch(2) } });
    hub.sendState(third, { revision: 3, since: { revision: 2, patch: patch(3) } });
    hub.sendState(third, { revision: 4, since: { revision: 3, patch: () => [] } });
    await patching.received(2);
    expect(patching.frames.map((frame) => frame.method)).to.deep.equal(['State', 'StatePatch']);
    expect(patching.frames[1]!.content).to.deep.equal({ sequence: 1, patch: [{ op: 'replace', path: '/currentFolderSizeGb', value: 3 }] });
    patching.close();

    const full = await attached({ dialect: 'spec', statePatches: false });
    hub.sendState(third, { revision: 5, since: { revision: 4, patch: patch(3) } });
    await full.received(1);
    expect(full.frames).to.deep.equal([{ method: 'State', content: third }]);
    full.close();
  });

  it('sends a State larger than the unsent-output cap to a reading frontend, the next one and the events after them', async () => {
    const big: State = { ...initialState('/cache'), cacheFolder: 'x'.repeat(MAX_UNSENT_BYTES + 1024) };
    const reading = await attached({ dialect: 'spec', statePatches: false });
    hub.sendState(big, { revision: 1 });
    hub.sendState({ ...big, currentFolderSizeGb: 2 }, { revision: 2 });
    hub.send('AppVersion', { version: '1.0.0' }); // the rest of an answer waits behind them
    await reading.received(3);
    expect(reading.frames.map((frame) => (frame.content as State).currentFolderSizeGb)).to.deep.equal([0, 2, undefined]);
    expect(hub.isConnected).to.equal(true);
    reading.close();
  });

  it('holds State changes behind a backlog of unread output and sends only the newest, whole, once it is read', async () => {
    const big: State = { ...initialState('/cache'), cacheFolder: 'x'.repeat(8 * 1024 * 1024) };
    const reading = await attached({ dialect: 'spec', statePatches: true });
    hub.sendState(big, { revision: 1 });
    const patch = () => [{ op: 'replace' as const, path: '/currentFolderSizeGb', value: 0 }];
    for (const size of [1, 2, 3])
      hub.sendState({ ...big, currentFolderSizeGb: size }, { revision: size + 1, since: { revision: size, patch } });
    await reading.received(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reading.frames.map((frame) => [frame.method, (frame.content as State).currentFolderSizeGb])).to.deep.equal([
      ['State', 0],
      ['State', 3],
    ]);
    // Patches follow on from the State that was sent.
    hub.sendState(initialState('/cache'), {
      revision: 5,
      since: { revision: 4, patch: () => [{ op: 'replace', path: '/cacheFolder', value: '/cache' }] },
    });
    await reading.received(3);
    expect(reading.frames[2]!.method).to.equal('StatePatch');
    reading.close();
  });

  it('writes the waiting State as soon as the backlog is written, not on a later check', async () => {
    const big: State = { ...initialState('/cache'), cacheFolder: 'x'.repeat(8 * 1024 * 1024) };
    const reading = await attached({ dialect: 'spec', statePatches: false });
    hub.sendState(big, { revision: 1 });
    const order: string[] = [];
    // A ping written right behind the backlog: ws calls its callback once it, and so the backlog, is written.
    reading.socket.ping(undefined, undefined, () => order.push('backlog written'));
    const send = reading.socket.send.bind(reading.socket);
    reading.socket.send = ((frame: string, callback: (error?: Error) => void) => {
      order.push('newest State written');
      send(frame, callback);
    }) as WebSocket['send'];
    const patch = () => [];
    hub.sendState({ ...big, currentFolderSizeGb: 2 }, { revision: 2, since: { revision: 1, patch } });
    hub.sendState({ ...big, currentFolderSizeGb: 3 }, { revision: 3, since: { revision: 2, patch } });
    await reading.received(2);
    expect(order).to.deep.equal(['newest State written', 'backlog written']);
    expect(reading.frames.map((frame) => (frame.content as State).currentFolderSizeGb)).to.deep.equal([0, 3]);
    reading.close();
  });
  it('tells in-process listeners every event in spec names, whole States too, with or without a frontend, until they unsubscribe', async () => {
    const separate = new ConnectionHub(new Logger([]));
    const heardEvents: string[] = [];
    separate.onEvent(() => {
      throw new Error('a broken listener');
    });
    const unsubscribe = separate.onEvent((event) =>
      heardEvents.push(event.method === 'State' ? `State ${event.content.currentFolderSizeGb}` : event.method),
    );
    separate.send('ReplayBufferSaved', {});
    separate.sendState({ ...initialState('/cache'), currentFolderSizeGb: 7 }, { revision: 1 });
    separate.send('CaptureEngineDownloadProgress', { progress: 10, status: 'downloading' });
    unsubscribe();
    separate.send('BookmarkCreated', {});
    expect(heardEvents).to.deep.equal(['ReplayBufferSaved', 'State 7', 'CaptureEngineDownloadProgress']);
  });
});
