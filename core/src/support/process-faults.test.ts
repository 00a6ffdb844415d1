import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FAULT_EXIT_CODE } from './process-faults.js';

/** Runs `body` in a child Node with the handlers installed and a logger writing to `log`; its exit code and output. */
async function runWithFaultHandlers(log: string, body: string): Promise<{ code: number | null; output: string }> {
  const script = `
    import { Logger, RotatingFileSink } from ${JSON.stringify(new URL('./logger.js', import.meta.url).href)};
    import { handleProcessFaults } from ${JSON.stringify(new URL('./process-faults.js', import.meta.url).href)};
    const logger = new Logger([new RotatingFileSink(${JSON.stringify(log)})]);
    handleProcessFaults(logger, (reason, exitCode) => { console.log('shutdown: ' + reason); logger.close(); process.exit(exitCode); });
    ${body}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}

describe('handleProcessFaults', function () {
  this.timeout(20_000);
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-faults-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('logs an unhandled rejection as an error with its stack and keeps running', async () => {
    const log = path.join(folder, 'keyframe.log');
    const { code, output } = await runWithFaultHandlers(
      log,
      `
      void Promise.reject(new Error('a stray rejection'));
      setTimeout(() => { console.log('still running'); logger.close(); }, 200);`,
    );
    expect(code).to.equal(0);
    expect(output).to.include('still running');
    const line = JSON.parse((await readFile(log, 'utf8')).trim()) as {
      level: string;
      fields: { reason: { message: string; stack: string } };
    };
    expect(line.level).to.equal('error');
    expect(line.fields.reason.message).to.equal('a stray rejection');
    expect(line.fields.reason.stack).to.match(/a stray rejection\n\s+at /);
  });

  it('logs an uncaught exception with its stack, shuts down and exits non-zero', async () => {
    const log = path.join(folder, 'keyframe.log');
    const { code, output } = await runWithFaultHandlers(log, `setTimeout(() => { throw new RangeError('an uncaught fault'); }, 10);`);
    expect(code).to.equal(FAULT_EXIT_CODE);
    expect(output).to.include('shutdown: Uncaught exception');
    const line = JSON.parse((await readFile(log, 'utf8')).trim()) as { level: string; fields: { error: { name: string; stack: string } } };
    expect(line.level).to.equal('error');
    expect(line.fields.error.name).to.equal('RangeError');
    expect(line.fields.error.stack).to.match(/an uncaught fault\n\s+at /);
  });
});
