import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEED_KINDS } from './feed-kinds.js';
import { generateIntegration } from './generate.js';
import { standaloneLayout } from './layouts.js';
import { resolveProject, UsageError } from './project.js';

const CLI = fileURLToPath(new URL('./cli.js', import.meta.url));

describe('generateIntegration', () => {
  let temp: string;
  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'create-keyframe-integration-'));
  });
  afterEach(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  const create = (folder: string, feed: string) => generateIntegration(resolveProject({ folder, feed }, temp), standaloneLayout());

  for (const feed of FEED_KINDS) {
    it(`writes the house shape for a ${feed} feed, every placeholder filled`, async () => {
      const files = await create('racing-game', feed);
      expect(files).to.include.members([
        '.gitignore',
        'README.md',
        'package.json',
        'tsconfig.json',
        'src/index.ts',
        'src/racing-game-integration.ts',
        'src/event-parser.ts',
        'src/event-parser.test.ts',
        'src/tapes.test.ts',
        'test/data/sample.tape.jsonl',
        'test/data/sample.expected.json',
      ]);
      for (const file of files.filter((name) => !name.endsWith('.png'))) {
        expect(await readFile(path.join(temp, 'racing-game', file), 'utf8'), file).to.not.match(/__[A-Z_]+__/);
      }
      const header = JSON.parse((await readFile(path.join(temp, 'racing-game', 'test/data/sample.tape.jsonl'), 'utf8')).split('\n')[0]!);
      expect(header.integration).to.equal('racingGame');
      const manifest = JSON.parse(await readFile(path.join(temp, 'racing-game', 'package.json'), 'utf8'));
      expect(manifest.keyframe.integration.feeds[0]).to.match(new RegExp(`^${feed}\\b`));
    });
  }

  it('writes into an empty folder that exists', async () => {
    await mkdir(path.join(temp, 'racing-game'));
    await create('racing-game', 'tail');
    expect(existsSync(path.join(temp, 'racing-game', 'package.json'))).to.equal(true);
  });

  it('refuses a folder that holds anything, and writes nothing', async () => {
    await mkdir(path.join(temp, 'racing-game'));
    await writeFile(path.join(temp, 'racing-game', 'notes.txt'), 'mine');
    let refusal: unknown;
    await create('racing-game', 'tail').catch((error: unknown) => (refusal = error));
    expect(refusal).to.be.instanceOf(UsageError).with.property('message').that.includes('already exists and is not empty');
    expect(await readdir(temp)).to.deep.equal(['racing-game']);
    expect(await readdir(path.join(temp, 'racing-game'))).to.deep.equal(['notes.txt']);
  });
});

describe('create-keyframe-integration (the command)', () => {
  let temp: string;
  before(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'create-keyframe-integration-'));
  });
  after(async () => {
    await rm(temp, { recursive: true, force: true });
  });
  const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: temp, encoding: 'utf8' });

  it('exits 1 with the reason and writes nothing when refused', async () => {
    for (const args of [
      ['racing-game', '--feed', 'serial'],
      ['racing-game', '--key', 'Racing'],
      ['racing-game', '--package-name', 'Racing'],
      [],
    ]) {
      const result = run(...args);
      expect(result.status, args.join(' ')).to.equal(1);
      expect(result.stderr).to.match(/^create-keyframe-integration: /);
    }
    expect(run('racing-game', '--feed', 'serial').stderr).to.include(
      'use one of httpPush, poll, tail, watchFolder, screenText, tcp, webSocket, udp',
    );
    expect(await readdir(temp)).to.deep.equal([]);
  });

  it('prints the usage with --help, and exits 0', () => {
    const result = run('--help');
    expect(result.status).to.equal(0);
    expect(result.stdout).to.include('npm create keyframe-integration <folder>');
  });

  it('creates the folder and says what to do next', () => {
    const result = run('racing-game', '--feed', 'tail');
    expect(result.status, result.stderr).to.equal(0);
    expect(result.stdout).to.include('Created racing-game: keyframe-plugin-racing-game, integration key racingGame, a tail feed.');
    expect(existsSync(path.join(temp, 'racing-game', 'src', 'racing-game-integration.ts'))).to.equal(true);
  });
});
