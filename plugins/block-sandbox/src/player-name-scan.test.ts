import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { scanPlayerName } from './player-name-scan.js';
import { RECORDED_LOGS, recordedData } from './recorded-logs.js';

describe('scanPlayerName', () => {
  let temp: string;
  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'block-sandbox-scan-'));
  });
  afterEach(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  const logWith = async (text: string) => {
    const file = path.join(temp, 'latest.log');
    await writeFile(file, text, 'latin1');
    return file;
  };

  it('finds the user after many lines, across read chunks', async () => {
    const filler = '[15:41:10] [main/INFO]: Loading mod x\n'.repeat(5000);
    expect(await scanPlayerName(await logWith(`${filler}[15:41:15] [Render thread/INFO]: Setting user: Dialgatrainer069\r\n`))).to.equal(
      'Dialgatrainer069',
    );
  });

  it('takes the first user, and not one quoted in chat', async () => {
    const file = await logWith(
      '[1] [Render thread/INFO]: [CHAT] <x> Setting user: Fake\n[2] [Render thread/INFO]: Setting user: Real\n[3] [Render thread/INFO]: Setting user: Later\n',
    );
    expect(await scanPlayerName(file)).to.equal('Real');
  });

  it('gives nothing for a log without the line, a half-written line, or past the byte limit', async () => {
    expect(await scanPlayerName(await logWith('[1] [Render thread/INFO]: Starting\n'))).to.equal(undefined);
    expect(await scanPlayerName(await logWith('[1] [Render thread/INFO]: Setting user: Ste'))).to.equal(undefined);
    expect(await scanPlayerName(await logWith(`${'x'.repeat(2000)}\n[1] [Render thread/INFO]: Setting user: Steve\n`), 1000)).to.equal(
      undefined,
    );
  });

  it('throws when the file cannot be read', async () => {
    let failure: unknown;
    await scanPlayerName(path.join(temp, 'missing.log')).catch((error: unknown) => {
      failure = error;
    });
    expect(failure).to.be.instanceOf(Error);
  });

  it('finds the user in every recorded log', async function () {
    recordedData.skipIfAbsent(this);
    for (const recorded of RECORDED_LOGS)
      expect(await scanPlayerName(recordedData.path(recorded.file)), recorded.file).to.equal(recorded.player);
  });
});
