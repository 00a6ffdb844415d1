// `npm run new-integration`: the scaffold builds and passes its own tests as generated, and refuses
// bad names, bad keys, taken keys and existing folders without writing anything.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT = path.join(REPO, 'scripts', 'new-integration.mjs');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; `shell: false`, so globs reach the program as written. */
function run(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const describeRun = (result: Run) => `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;

describe('npm run new-integration', function () {
  this.timeout(120_000);
  // Inside the repository (and gitignored), so that @keyframe/core, @keyframe/test and tsyringe
  // resolve from its node_modules exactly as they do for plugins/.
  const pluginsFolder = path.join(REPO, '.test-plugins', randomBytes(6).toString('hex'));
  const env = { KEYFRAME_PLUGINS_DIR: pluginsFolder };
  const scaffold = (...args: string[]) => run(process.execPath, [SCRIPT, ...args], { cwd: REPO, env });
  let rootTsconfig: string;

  before(async () => {
    rootTsconfig = await readFile(path.join(REPO, 'tsconfig.json'), 'utf8');
  });
  after(async () => {
    await rm(pluginsFolder, { recursive: true, force: true });
  });

  it('creates a package that builds with tsc -b and passes its own unit and tape tests', async () => {
    const created = await scaffold('racing-game', 'racingGame');
    expect(created.code, describeRun(created)).to.equal(0);
    expect(created.stdout).to.include('racingGame');

    const root = path.join(pluginsFolder, 'racing-game');
    const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
      name: string;
      peerDependencies: Record<string, string>;
      keyframe: {
        apiVersion: number;
        integration: { key: string; displayName: string; games: { executables: string[] }[]; feeds: string[] };
      };
    };
    expect(pkg.name).to.equal('@keyframe/plugin-racing-game');
    expect(pkg.peerDependencies).to.have.property('@keyframe/core');
    expect(pkg.keyframe.apiVersion).to.equal(1);
    expect(pkg.keyframe.integration).to.deep.include({ key: 'racingGame', displayName: 'Racing game' });
    expect(pkg.keyframe.integration.games[0]!.executables).to.deep.equal(['racing-game.exe', 'racing-game']);
    expect(pkg.keyframe.integration.feeds[0]).to.match(/^httpPush:\d+$/);
    expect((await readdir(path.join(root, 'src'))).sort()).to.deep.equal([
      'counter-bookmarks.ts',
      'event-parser.test.ts',
      'event-parser.ts',
      'index.ts',
      'racing-game-integration.ts',
      'tapes.test.ts',
    ]);
    expect(await readFile(path.join(root, 'src', 'racing-game-integration.ts'), 'utf8')).to.include('export class RacingGameIntegration');
    // KEYFRAME_PLUGINS_DIR: a throw-away package is no workspace member.
    expect(await readFile(path.join(REPO, 'tsconfig.json'), 'utf8')).to.equal(rootTsconfig);

    const build = await run('npx', ['--no-install', 'tsc', '-b'], { cwd: root });
    expect(build.code, describeRun(build)).to.equal(0);

    const tests = await run('npx', ['--no-install', 'mocha', '--no-config', '--require', 'reflect-metadata', 'dist/**/*.test.js'], {
      cwd: root,
    });
    expect(tests.code, describeRun(tests)).to.equal(0);
    expect(tests.stdout).to.match(/\d+ passing/);
    expect(tests.stdout).to.include('replays sample.tape.jsonl');
    expect(tests.stdout).to.not.match(/failing|pending/);
  });

  it('refuses an existing folder, with exit code 1', async () => {
    const refused = await scaffold('racing-game', 'otherRacingGame');
    expect(refused.code, describeRun(refused)).to.equal(1);
    expect(refused.stderr).to.match(/racing-game already exists/);
  });

  it('refuses a key that is not a valid integration key, with exit code 1', async () => {
    for (const key of ['Racing', 'racing-game', '9lives', 'racing_game']) {
      const refused = await scaffold('another-game', key);
      expect(refused.code, describeRun(refused)).to.equal(1);
      expect(refused.stderr).to.include(`key "${key}" is not valid`);
    }
    expect(existsSync(path.join(pluginsFolder, 'another-game'))).to.equal(false);
  });

  it('refuses a key another plugin already uses, with exit code 1', async () => {
    const taken = await scaffold('another-game', 'tacticalShooter');
    expect(taken.code, describeRun(taken)).to.equal(1);
    expect(taken.stderr).to.match(/key "tacticalShooter" is already used by plugins[/\\]tactical-shooter/);
    const takenHere = await scaffold('another-game', 'racingGame');
    expect(takenHere.code, describeRun(takenHere)).to.equal(1);
    expect(takenHere.stderr).to.include('key "racingGame" is already used');
    expect(existsSync(path.join(pluginsFolder, 'another-game'))).to.equal(false);
  });

  it('refuses a folder name that is not kebab-case, with exit code 1', async () => {
    for (const name of ['RacingGame', 'racing_game', 'racing-', 'racing--game']) {
      const refused = await scaffold(name, 'anotherGame');
      expect(refused.code, describeRun(refused)).to.equal(1);
      expect(refused.stderr).to.include(`folder name "${name}" is not kebab-case`);
    }
  });
});
