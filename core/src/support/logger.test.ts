import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
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

  it('writes the causes of an error, its own properties and aggregated errors, redacted, also one from another realm', async () => {
    const logger = new Logger([new RotatingFileSink(path.join(folder, 'keyframe.log'))]).child('plugin:racingGame');
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:47584'), { code: 'ECONNREFUSED', port: 47584 });
    const error = Object.assign(new Error('the feed handler threw', { cause }), { apiKey: 'secret-key', attempt: 2 });
    logger.error('the integration failed to handle an input', { error });
    logger.error('both failed', { error: new AggregateError([new RangeError('first'), 'second'], 'both failed') });
    logger.error('from a vm context', { error: runInNewContext('new Error("made elsewhere")') as unknown });
    logger.close();
    const lines = (await readFile(path.join(folder, 'keyframe.log'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { fields: { error: Record<string, unknown> } }).fields.error);
    expect(lines[0]).to.deep.include({ name: 'Error', message: 'the feed handler threw', apiKey: '-REDACTED-', attempt: 2 });
    expect(lines[0]!.stack).to.match(/the feed handler threw\n\s+at /);
    expect(lines[0]!.cause).to.deep.include({ message: 'connect ECONNREFUSED 127.0.0.1:47584', code: 'ECONNREFUSED', port: 47584 });
    expect((lines[0]!.cause as { stack: string }).stack).to.match(/\n\s+at /);
    expect(lines[1]!.errors).to.deep.include.members(['second']);
    expect((lines[1]!.errors as Record<string, unknown>[])[0]).to.deep.include({ name: 'RangeError', message: 'first' });
    expect(lines[2]).to.deep.include({ name: 'Error', message: 'made elsewhere' });
  });

  it('ends a cycle of causes instead of following it', async () => {
    const logger = new Logger([new RotatingFileSink(path.join(folder, 'keyframe.log'))]);
    const error = new Error('round');
    error.cause = error;
    logger.error('cycle', { error });
    logger.close();
    const text = await readFile(path.join(folder, 'keyframe.log'), 'utf8');
    expect(text.match(/"message":"round"/g)).to.have.length.within(2, 13);
  });

  it('leaves debug lines out of the file unless asked for them, and says so before they are prepared', async () => {
    const logger = new Logger([new RotatingFileSink(path.join(folder, 'keyframe.log'))]);
    expect([logger.writes('debug'), logger.writes('info')]).to.deep.equal([false, true]);
    logger.debug('command', { method: 'NewConnection' });
    logger.info('frontend connected');
    logger.close();
    const lines = (await readFile(path.join(folder, 'keyframe.log'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { message: string }).message)).to.deep.equal(['frontend connected']);
    const asked = new Logger([new RotatingFileSink(path.join(folder, 'debug.log'), { level: 'debug' })]);
    expect(asked.writes('debug')).to.equal(true);
    asked.close();
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
