// Bad input from a frontend: each frame gets its CommandRejected, the connection stays usable,
// and the process keeps running.
import 'reflect-metadata';
import { expect } from 'chai';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

interface Case {
  name: string;
  frame: string | Buffer;
  binary?: boolean;
  method: string | null;
  code: string;
  message?: RegExp;
}

const CASES: Case[] = [
  { name: 'text that is not JSON', frame: '{"Method": "NewConnection"', method: null, code: 'MalformedMessage', message: /Not JSON/ },
  { name: 'an empty frame', frame: '', method: null, code: 'MalformedMessage' },
  { name: 'a JSON array', frame: '[1, 2, 3]', method: null, code: 'MalformedMessage' },
  { name: 'a JSON string', frame: '"StartRecording"', method: null, code: 'MalformedMessage' },
  { name: 'JSON null', frame: 'null', method: null, code: 'MalformedMessage' },
  { name: 'an object without Method', frame: '{"Parameters": {}}', method: null, code: 'MalformedMessage', message: /Method/ },
  { name: 'a lowercase method key', frame: '{"method": "NewConnection"}', method: null, code: 'MalformedMessage' },
  { name: 'Method that is not a string', frame: '{"Method": 42}', method: null, code: 'MalformedMessage' },
  { name: 'an unknown Method', frame: '{"Method": "FormatHardDrive"}', method: 'FormatHardDrive', code: 'UnknownMethod' },
  { name: 'a Method with the wrong case', frame: '{"Method": "newconnection"}', method: 'newconnection', code: 'UnknownMethod' },
  {
    name: 'missing required parameters',
    frame: '{"Method": "ApplyVideoPreset"}',
    method: 'ApplyVideoPreset',
    code: 'InvalidParameters',
    message: /preset/,
  },
  {
    name: 'a parameter of the wrong type',
    frame: '{"Method": "ToggleFullscreen", "Parameters": {"enabled": "yes"}}',
    method: 'ToggleFullscreen',
    code: 'InvalidParameters',
    message: /enabled/,
  },
  {
    name: 'a value outside its enumeration',
    frame: '{"Method": "ApplyClipPreset", "Parameters": {"preset": "ultra"}}',
    method: 'ApplyClipPreset',
    code: 'InvalidParameters',
  },
  {
    name: 'an unexpected parameter',
    frame: '{"Method": "CancelClip", "Parameters": {"id": 1, "force": true}}',
    method: 'CancelClip',
    code: 'InvalidParameters',
    message: /force/,
  },
  {
    name: 'Parameters that are not an object',
    frame: '{"Method": "UpdateSettings", "Parameters": [1]}',
    method: 'UpdateSettings',
    code: 'InvalidParameters',
  },
  {
    name: 'a setting of the wrong type',
    frame: '{"Method": "UpdateSettings", "Parameters": {"frameRate": "fast"}}',
    method: 'UpdateSettings',
    code: 'InvalidParameters',
    message: /frameRate/,
  },
  {
    name: 'a frame over 1 MiB',
    frame: JSON.stringify({ Method: 'UpdateSettings', Parameters: { padding: 'x'.repeat(1.5 * 1024 * 1024) } }),
    method: null,
    code: 'MalformedMessage',
    message: /limited to/,
  },
  {
    name: 'a binary frame',
    frame: Buffer.from('{"Method": "NewConnection"}'),
    binary: true,
    method: null,
    code: 'MalformedMessage',
    message: /Binary/,
  },
  { name: 'deeply nested JSON', frame: `${'['.repeat(5000)}${']'.repeat(5000)}`, method: null, code: 'MalformedMessage' },
];

describe('transport: malformed input', function () {
  let data: TempFolder;
  let service: ServiceProcess;
  let client: ProtocolClient;

  before(async () => {
    data = await createTempFolder();
    service = await ServiceProcess.start({ dataFolder: data.path });
    client = await ProtocolClient.connect(service.url);
  });
  after(async () => {
    await client.close();
    await service.stop();
    await data.remove();
  });

  for (const testCase of CASES) {
    it(`refuses ${testCase.name} and stays usable`, async () => {
      client.skipReceived();
      client.sendRaw(testCase.frame, { binary: testCase.binary ?? false });
      const rejection = await client.next('CommandRejected');
      expect(rejection.code).to.equal(testCase.code);
      expect(rejection.method).to.equal(testCase.method);
      if (testCase.message) expect(rejection.message).to.match(testCase.message);
      client.sendRaw('ping');
      await client.next('pong');
    });
  }

  it('still answers NewConnection correctly afterwards, and every event matched its schema', async () => {
    const { settings, state } = await client.handshake();
    expect(settings.frameRate).to.be.a('number');
    expect(state.recording).to.equal(null);
    expect(client.isOpen).to.equal(true);
    expect(service.isRunning).to.equal(true);
    expect(client.schemaViolations).to.deep.equal([]);
  });

  it('logs each refusal in the log file', async () => {
    const { readFile } = await import('node:fs/promises');
    const log = await readFile(`${data.path}/logs/keyframe.log`, 'utf8');
    expect(log).to.include('command rejected');
    expect(log).to.include('FormatHardDrive');
  });
});
