import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Logger, logLevelFrom, RotatingFileSink } from './logger.js';

describe('Logger with RotatingFileSink', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-log-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('writes one JSON object per line with tokens redacted', async () => {
    const logger = new Logger([new RotatingFileSink(path.join(folder, 'keyframe.log'))]).child('auth');
    logger.info('signed in', { accessToken: 'secret-token', user: 'me' });
    logger.close();
    const line = JSON.parse((await readFile(path.join(folder, 'keyframe.log'), 'utf8')).trim()) as Record<string, unknown>;
    expect(line).to.deep.include({ level: 'info', scope: 'auth', message: 'signed in', fields: { accessToken: '-REDACTED-', user: 'me' } });
  });

  it('writes an error with its message and stack, not {}', async () => {
    const logger = new Logger([new RotatingFileSink(path.join(folder, 'keyframe.log'))]);
    logger.error('command failed', { error: new Error('the disk is full') });
    logger.close();
    const line = JSON.parse((await readFile(path.join(folder, 'keyframe.log'), 'utf8')).trim()) as {
      fields: { error: Record<string, string> };
    };
    expect(line.fields.error).to.deep.include({ name: 'Error', message: 'the disk is full' });
    expect(line.fields.error.stack).to.match(/the disk is full\n\s+at /);
  });

  it('leaves debug lines out of the file unless asked for them', async () => {
    const logger = new Logger([new RotatingFileSink(path.join(folder, 'keyframe.log'))]);
    logger.debug('command', { method: 'NewConnection' });
    logger.info('frontend connected');
    logger.close();
    const lines = (await readFile(path.join(folder, 'keyframe.log'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { message: string }).message)).to.deep.equal(['frontend connected']);
  });

  it('rotates by size and keeps a bounded number of files', async () => {
    const logger = new Logger([new RotatingFileSink(path.join(folder, 'keyframe.log'), { maxBytes: 2000, keepFiles: 2 })]);
    for (let index = 0; index < 200; index++) logger.info(`line ${index}`, { padding: 'x'.repeat(50) });
    logger.close();
    expect((await readdir(folder)).sort()).to.deep.equal(['keyframe.1.log', 'keyframe.2.log', 'keyframe.log']);
    expect(await readFile(path.join(folder, 'keyframe.log'), 'utf8')).to.include('line 199');
  });
});

describe('logLevelFrom', () => {
  it('reads a level name in any case and falls back on anything else', () => {
    expect(logLevelFrom(' DEBUG ', 'info')).to.equal('debug');
    expect(logLevelFrom('constructor', 'info')).to.equal('info');
    expect(logLevelFrom(undefined, 'warn')).to.equal('warn');
  });
});
