// Wire dialects as frontends meet them: a connection asks for `?dialect=reference` or `?dialect=spec`, or gets the
// service's default (the `wireDialect` setting, read when it connects); an unknown dialect is refused.
import 'reflect-metadata';
import { expect } from 'chai';
import { request } from 'node:http';
import { WebSocket } from 'ws';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

/** A frontend that reads events by whatever names they come with: no schema to check them against. */
class RawClient {
  readonly events: Array<{ method: string; content: Record<string, unknown> }> = [];
  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.events.push(JSON.parse(data.toString()) as RawClient['events'][number]));
  }

  static async connect(url: string): Promise<RawClient> {
    const socket = new WebSocket(url.replace(/^http/, 'ws'));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new RawClient(socket);
  }

  send(method: string, parameters?: unknown): void {
    this.socket.send(JSON.stringify({ Method: method, Parameters: parameters }));
  }

  /** The first event named `method` received after the `skip` first ones. */
  async next(method: string, skip = 0): Promise<Record<string, unknown>> {
    for (let waited = 0; waited < 5000; waited += 20) {
      const found = this.events.slice(skip).find((event) => event.method === method);
      if (found) return found.content;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no ${method} within 5 s; received ${this.events.map((event) => event.method).join(', ')}`);
  }

  /** The Settings and State of the NewConnection answer. */
  async handshake(): Promise<{ settings: Record<string, unknown>; state: Record<string, unknown> }> {
    this.send('NewConnection');
    return { settings: await this.next('Settings'), state: await this.next('State') };
  }

  close(): void {
    this.socket.close();
  }
}

/** A few of the reference frontend's integration keys (the unit tests check all ten). */
const REFERENCE_KEYS = ['counterStrike2', 'pubg', 'minecraft', 'gta'];

/** The status and body of a WebSocket upgrade the service refuses. */
function refusedUpgrade(url: string): Promise<{ status: number | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const upgrade = request(url, {
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    });
    upgrade.on('upgrade', () => reject(new Error('the upgrade was accepted')));
    upgrade.on('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode, body }));
    });
    upgrade.on('error', reject);
    upgrade.end();
  });
}

describe('wire dialects', function () {
  this.timeout(30000);
  let data: TempFolder;
  let service: ServiceProcess;
  const clients: Array<{ close(): unknown }> = [];

  before(async () => {
    data = await createTempFolder();
    service = await ServiceProcess.start({ dataFolder: data.path, legacyPort: 'off' });
  });
  after(async () => {
    for (const client of clients) await client.close();
    await service.stop();
    await data.remove();
  });

  const raw = async (query: string) => {
    const client = await RawClient.connect(`${service.url}${query}`);
    clients.push(client);
    return client;
  };

  it("gives a ?dialect=reference connection the reference frontend's names, and takes its names in commands", async () => {
    const reference = await raw('?dialect=reference&other=ignored');
    const { settings, state } = await reference.handshake();
    expect(state).to.include.keys('hasLoadedObs', 'availableOBSVersions');
    expect(state).not.to.have.any.keys('hasLoadedCaptureEngine', 'availableCaptureEngineVersions');
    expect(settings).to.include.keys('selectedOBSVersion');
    expect(settings).not.to.have.any.keys('selectedCaptureEngineVersion');
    expect(settings.gameIntegrations).to.include.keys(REFERENCE_KEYS);
    expect(settings.gameIntegrations).not.to.have.any.keys('tacticalShooter');

    const seen = reference.events.length;
    reference.send('UpdateSettings', { gameIntegrations: { counterStrike2: { enabled: false } } });
    const echoed = (await reference.next('Settings', seen)).gameIntegrations as Record<string, { enabled: boolean }>;
    expect(echoed.counterStrike2).to.deep.equal({ enabled: false });
    expect(echoed.pubg).to.deep.equal({ enabled: true });

    // The same service, to a SPEC frontend: its names only, and the change landed on SPEC's key.
    const spec = await ProtocolClient.connect(`${service.url}?dialect=spec`);
    clients.push(spec);
    const handshake = await spec.handshake();
    expect(handshake.settings.gameIntegrations.tacticalShooter).to.deep.equal({ enabled: false });
    expect(handshake.settings.gameIntegrations).not.to.have.any.keys(REFERENCE_KEYS);
    expect(handshake.settings).to.have.property('selectedCaptureEngineVersion');
    expect(handshake.settings).not.to.have.property('selectedOBSVersion');
    expect(handshake.state).to.include.keys('hasLoadedCaptureEngine', 'availableCaptureEngineVersions');
    expect(spec.schemaViolations).to.deep.equal([]);
  });

  it('gives connections that do not ask the wireDialect setting as it is when they connect', async () => {
    const spec = await ProtocolClient.connect(service.url);
    clients.push(spec);
    await spec.handshake();
    spec.send('UpdateSettings', { wireDialect: 'reference' });
    expect((await spec.next('Settings')).wireDialect).to.equal('reference');

    const unasked = await raw('');
    expect((await unasked.handshake()).state).to.include.keys('hasLoadedObs');
    const asking = await raw('?dialect=spec');
    const { settings, state } = await asking.handshake();
    expect(state).to.include.keys('hasLoadedCaptureEngine');
    expect(settings.gameIntegrations).to.include.keys('tacticalShooter');
  });

  it('refuses an unknown dialect with 400 and says which ones there are', async () => {
    const { status, body } = await refusedUpgrade(`${service.url}?dialect=klingon`);
    expect(status).to.equal(400);
    expect(body).to.equal('Unknown dialect "klingon": ask for ?dialect=spec or ?dialect=reference');
    expect(service.printed).to.include('Unknown dialect');
  });

  it('takes KEYFRAME_DIALECT over the setting, and says so when it starts', async () => {
    const other = await createTempFolder();
    const referenceService = await ServiceProcess.start({
      dataFolder: other.path,
      legacyPort: 'off',
      env: { KEYFRAME_DIALECT: 'reference' },
    });
    try {
      expect(referenceService.printed).to.match(/Dialect: +reference/);
      const client = await RawClient.connect(referenceService.url);
      expect((await client.handshake()).settings).to.include.keys('selectedOBSVersion');
      client.close();
    } finally {
      await referenceService.stop();
      await other.remove();
    }
  });
});
