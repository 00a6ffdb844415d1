// The service process as a user runs it: clean shutdown, and logs that never hold secrets.
import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

describe('service lifecycle', function () {
  this.timeout(20000);
  let data: TempFolder;
  let service: ServiceProcess;

  beforeEach(async () => {
    data = await createTempFolder();
    service = await ServiceProcess.start({ dataFolder: data.path });
  });
  afterEach(async () => {
    await service.stop();
    await data.remove();
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops on ${signal}: closes the frontend connection, saves pending settings, exits 0`, async () => {
      const client = await ProtocolClient.connect(service.url);
      await client.handshake();
      client.send('UpdateSettings', { frameRate: 144 });
      await client.next('Settings');
      service.child.kill(signal);
      expect(await client.closed).to.deep.equal({ code: 1001, reason: 'Keyframe is shutting down' });
      expect(await service.exited).to.deep.equal({ code: 0, signal: null });
      const saved = JSON.parse(await readFile(path.join(data.path, 'settings.json'), 'utf8')) as { frameRate: number };
      expect(saved.frameRate).to.equal(144);
    });
  }

  it('never writes sign-in tokens to the log, even from malformed frames', async () => {
    const client = await ProtocolClient.connect(service.url);
    // A valid Login is accepted without a reply; the malformed ones after it are refused.
    client.sendRaw(JSON.stringify({ Method: 'Login', Parameters: { accessToken: 'SECRET-ACCESS-1', refreshToken: 'SECRET-REFRESH-1' } }));
    const tokens = path.join(data.path, 'account', 'tokens.json');
    while (!existsSync(tokens)) await new Promise((resolve) => setTimeout(resolve, 20));
    client.sendRaw('{"Method":"Login","Parameters":{"accessToken":"SECRET-ACCESS-2","refreshToken":"SECRET-REFRESH-2"');
    await client.next('CommandRejected');
    client.sendRaw(
      JSON.stringify({ Method: 'Login', Parameters: { accessToken: 'SECRET-ACCESS-3', refreshToken: 'SECRET-REFRESH-3', extra: 1 } }),
    );
    await client.next('CommandRejected');
    await client.close();
    await service.stop();
    const log = await readFile(path.join(data.path, 'logs', 'keyframe.log'), 'utf8');
    expect(log).to.include('Login');
    expect(log).to.not.match(/SECRET-/);
  });
});
