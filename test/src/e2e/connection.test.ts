// Connection rules of the transport, against the real service process.
import 'reflect-metadata';
import { expect } from 'chai';
import { request } from 'node:http';
import { WebSocket } from 'ws';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

const ALLOWED_ORIGIN = 'http://localhost:5173';

describe('transport: connection rules', function () {
  let data: TempFolder;
  let service: ServiceProcess;
  const clients: ProtocolClient[] = [];
  const connect = async (options?: { origin?: string }) => {
    const client = await ProtocolClient.connect(service.url, options);
    clients.push(client);
    return client;
  };

  before(async function () {
    data = await createTempFolder();
    service = await ServiceProcess.start({ dataFolder: data.path, env: { KEYFRAME_ALLOWED_ORIGINS: ALLOWED_ORIGIN } });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  after(async () => {
    await service.stop();
    await data.remove();
  });

  it('prints where the UI, the data and the logs are', () => {
    expect(service.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(service.printed).to.include(`Data:      ${data.path}`);
    expect(service.printed).to.include('Logs:');
  });

  it('answers the text frame ping with pong', async () => {
    const client = await connect();
    client.sendRaw('ping');
    expect(await client.next('pong')).to.deep.equal({});
  });

  it('answers NewConnection with Settings, State, GameList, AppVersion, then ReleaseNotes', async () => {
    const client = await connect();
    client.send('NewConnection');
    await client.next('ReleaseNotes');
    expect(client.events.map((event) => event.method)).to.deep.equal(['Settings', 'State', 'GameList', 'AppVersion', 'ReleaseNotes']);
    const version = client.events[3]!.content as { version: string };
    expect(version.version).to.match(/^\d+\.\d+\.\d+/);
    expect(client.schemaViolations).to.deep.equal([]);
  });

  it('closes the previous connection when a new one opens, and sends events to the newest', async () => {
    const first = await connect();
    const second = await connect();
    const closed = await first.closed;
    expect(closed.code).to.equal(4000);
    expect(closed.reason).to.match(/newer connection/i);
    second.sendRaw('ping');
    await second.next('pong');
    expect(first.events).to.have.length(0);
  });

  it('sends AppVersion on the legacy port and closes the connection', async () => {
    expect(service.legacyUrl, 'legacy listener bound').to.be.a('string');
    const socket = new WebSocket(service.legacyUrl!);
    const messages: string[] = [];
    socket.on('message', (data) => messages.push(data.toString()));
    const closed = await new Promise<{ code: number; reason: string }>((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    expect(messages).to.have.length(1);
    const event = JSON.parse(messages[0]!) as { method: string; content: { version: string } };
    expect(event.method).to.equal('AppVersion');
    expect(event.content.version).to.match(/^\d+\.\d+\.\d+/);
    expect(closed).to.deep.equal({ code: 1000, reason: 'Port moved - reload' });
  });

  it('refuses a WebSocket from a foreign web origin with HTTP 403', async () => {
    const error = await ProtocolClient.connect(service.url, { origin: 'https://evil.example' }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).to.have.property('statusCode', 403);
  });

  it('accepts its own origin and origins from KEYFRAME_ALLOWED_ORIGINS', async () => {
    const own = await connect({ origin: service.url.replace(/\/$/, '') });
    own.sendRaw('ping');
    await own.next('pong');
    const allowed = await connect({ origin: ALLOWED_ORIGIN });
    allowed.sendRaw('ping');
    await allowed.next('pong');
  });

  it('refuses HTTP requests that name another host (DNS rebinding)', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const url = new URL(service.url);
      request({ host: url.hostname, port: url.port, path: '/', headers: { Host: 'attacker.example' } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(status).to.equal(403);
  });

  it('serves a page at the root URL', async () => {
    const response = await fetch(service.url);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/text\/html/);
    expect(await response.text()).to.match(/Keyframe/);
  });
});
