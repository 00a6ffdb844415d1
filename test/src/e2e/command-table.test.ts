// Every command SPEC lists reaches the dispatcher: known, with a schema that checks its Parameters.
import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

const SPEC = fileURLToPath(new URL('../../../../shared/SPEC.md', import.meta.url));

function specCommands(): string[] {
  const text = readFileSync(SPEC, 'utf8');
  const section = text.slice(text.indexOf('### Commands (frontend to backend)'), text.indexOf('Response to `NewConnection`'));
  return [...section.matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((match) => match[1]!);
}

describe('dispatcher: SPEC command table', function () {
  let data: TempFolder;
  let service: ServiceProcess;
  let client: ProtocolClient;

  before(async function () {
    if (!existsSync(SPEC)) {
      this.test!.title += ' (skipped: ../shared/SPEC.md is absent)';
      this.skip();
    }
    data = await createTempFolder();
    service = await ServiceProcess.start({ dataFolder: data.path });
    client = await ProtocolClient.connect(service.url);
  });
  after(async () => {
    await client?.close();
    await service?.stop();
    await data?.remove();
  });

  it('knows every command and validates its Parameters', async () => {
    const commands = specCommands();
    expect(commands).to.have.length.greaterThan(30);
    for (const method of commands) {
      client.skipReceived();
      client.sendRaw(JSON.stringify({ Method: method, Parameters: 'not an object' }));
      const rejection = await client.next('CommandRejected');
      expect(rejection, method).to.deep.include({ method, code: 'InvalidParameters' });
    }
  });
});
