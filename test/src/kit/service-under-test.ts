// One service per test, as the recording suites use it: a data folder and a content folder, the
// service started on them with the synthetic capture source and a client connected; after the test
// all of it is stopped and removed.
import type { State } from '@keyframe/core/protocol';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

export class ServiceUnderTest {
  /** Settings, logs and cache; new for every test. */
  data!: TempFolder;
  /** Where tests point `contentFolder`; new for every test. */
  content!: TempFolder;
  service: ServiceProcess | undefined;
  client: ProtocolClient | undefined;

  /** Starts the service (again, after a stop or a kill) and connects a new client, without the handshake. */
  async start(env: NodeJS.ProcessEnv = {}): Promise<ProtocolClient> {
    await this.client?.close();
    this.service = await ServiceProcess.start({
      dataFolder: this.data.path,
      legacyPort: 'off',
      env: { KEYFRAME_CAPTURE: 'synthetic', ...env },
    });
    this.client = await ProtocolClient.connect(this.service.url);
    return this.client;
  }

  /** `start`, then the handshake: the client and the first State. */
  async connect(env: NodeJS.ProcessEnv = {}): Promise<{ client: ProtocolClient; state: State }> {
    const client = await this.start(env);
    const { state } = await client.handshake();
    return { client, state };
  }

  /** The running service; throws before `start`. */
  get process(): ServiceProcess {
    if (!this.service) throw new Error('The service has not been started');
    return this.service;
  }

  async prepare(): Promise<void> {
    this.data = await createTempFolder();
    this.content = await createTempFolder('keyframe-content-');
  }

  async dispose(): Promise<void> {
    await this.client?.close();
    await this.service?.stop();
    this.client = undefined;
    this.service = undefined;
    await this.data.remove();
    await this.content.remove();
  }
}

/** A `ServiceUnderTest` set up before and disposed of after each test of the calling `describe`. */
export function serviceUnderTest(): ServiceUnderTest {
  const under = new ServiceUnderTest();
  beforeEach(() => under.prepare());
  afterEach(() => under.dispose());
  return under;
}
