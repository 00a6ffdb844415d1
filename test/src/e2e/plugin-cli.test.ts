// `keyframe plugin install|list|remove|check` as a user runs them, against a real data folder and real npm
// (offline flags), with the service running: a new integration appears without a restart, an update or
// a removal waits for the next start and State says so, an incompatible package is refused before install.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

const require = createRequire(import.meta.url);
const CORE = path.dirname(require.resolve('@keyframe/core/package.json'));
const MAIN = path.join(CORE, 'dist', 'main.js');
const CORE_VERSION = (JSON.parse(await readFile(path.join(CORE, 'package.json'), 'utf8')) as { version: string }).version;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function keyframe(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, 'plugin', ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A plugin package folder as its author has it: plain JavaScript, so nothing to build. */
async function writePlugin(folder: string, version: string, engines: string, marker: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  const pkg = {
    name: 'keyframe-plugin-racing',
    version,
    type: 'module',
    main: 'index.js',
    peerDependencies: { '@keyframe/core': `^${CORE_VERSION}` },
    engines: { keyframe: engines },
    keyframe: {
      apiVersion: 1,
      integration: {
        key: 'racingGame',
        displayName: 'Racing game',
        events: ['Kill'],
        games: [{ name: 'Racing', executables: ['racing.exe'] }],
        feeds: [],
      },
    },
  };
  await writeFile(path.join(folder, 'package.json'), JSON.stringify(pkg, null, 2));
  await writeFile(
    path.join(folder, 'index.js'),
    `import { writeFileSync } from 'node:fs';
export default class Racing { async enable() { writeFileSync(${JSON.stringify(marker)}, ${JSON.stringify(version)}); } async activate() {} async deactivate() {} }\n`,
  );
}

function npmPack(folder: string, destination: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('npm', ['pack', folder, '--pack-destination', destination, '--ignore-scripts', '--silent'], (error, stdout) =>
      error ? reject(error) : resolve(path.join(destination, stdout.trim().split('\n').pop()!)),
    ),
  );
}

describe('keyframe plugin install, list, remove and check', function () {
  this.timeout(60_000);
  let work: TempFolder;
  let data: string;
  let source: string;
  let marker: string;
  let service: ServiceProcess;
  let client: ProtocolClient;

  before(async () => {
    work = await createTempFolder('keyframe-plugin-cli-');
    data = path.join(work.path, 'data');
    source = path.join(work.path, 'racing');
    marker = path.join(work.path, 'racing.enabled');
    await writePlugin(source, '0.1.0', `^${CORE_VERSION}`, marker);
    service = await ServiceProcess.start({ dataFolder: data });
    client = await ProtocolClient.connect(service.url);
    await client.handshake();
  });
  after(async () => {
    await client?.close();
    await service?.stop();
    await work?.remove();
  });

  it('checks a package folder: accepted, or refused with the reason and exit code 1', async () => {
    const accepted = await keyframe('check', source);
    expect(accepted, accepted.stderr).to.deep.include({ code: 0 });
    expect(accepted.stdout).to.contain('keyframe-plugin-racing 0.1.0: integration racingGame ("Racing game")');
    const future = path.join(work.path, 'future');
    await writePlugin(future, '0.1.0', '^99.0.0', marker);
    const refused = await keyframe('check', future);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.contain(`refused: needs Keyframe ^99.0.0; this is ${CORE_VERSION}`);
  });

  it('installs from a folder: the running service loads it at once, approved, and list shows it', async () => {
    const run = await keyframe('install', source, '--data-dir', data);
    expect(run, run.stderr).to.deep.include({ code: 0 });
    expect(run.stdout).to.match(/Installed keyframe-plugin-racing 0\.1\.0 \(integration racingGame/);
    const state = await client.until('State', (next) => next.integrations.racingGame?.status === 'idle');
    expect(state.integrations.racingGame!.approval).to.deep.include({ status: 'approved', version: '0.1.0' });
    expect(await readFile(marker, 'utf8'), 'its code ran').to.equal('0.1.0');
    const list = await keyframe('list', '--data-dir', data);
    expect(list.stdout).to.match(/racingGame\s+keyframe-plugin-racing\s+0\.1\.0\s+user\s+loaded \(approved\)/);
  });

  it('refuses an incompatible tarball before touching the plugins folder', async () => {
    const future = path.join(work.path, 'future');
    const tarball = await npmPack(future, work.path);
    const before = await readdir(path.join(data, 'plugins', 'packages'));
    const run = await keyframe('install', tarball, '--data-dir', data);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain(`needs Keyframe ^99.0.0; this is ${CORE_VERSION}. Nothing was installed.`);
    expect(await readdir(path.join(data, 'plugins', 'packages'))).to.deep.equal(before);
  });

  it('upgrades from a tarball: the running one stays, and State says a restart is needed', async () => {
    await writePlugin(source, '0.2.0', `^${CORE_VERSION}`, marker);
    const packed = path.join(work.path, 'packed');
    await mkdir(packed);
    const run = await keyframe('install', await npmPack(source, packed), '--data-dir', data);
    expect(run, run.stderr).to.deep.include({ code: 0 });
    const state = await client.until('State', (next) => next.integrationPackages.some((entry) => entry.key === 'racingGame'));
    expect(state.integrationPackages).to.deep.include({
      packageName: 'keyframe-plugin-racing',
      version: '0.1.0',
      folder: path.join(data, 'plugins', 'node_modules', 'keyframe-plugin-racing').split(path.sep).join('/'),
      key: 'racingGame',
      status: 'restartNeeded',
      reason: 'Updated to 0.2.0 — restart Keyframe to use it',
      warnings: [],
    });
    expect(state.integrations.racingGame!.status, 'the loaded one keeps running').to.equal('idle');
    expect(await readdir(path.join(data, 'plugins', 'packages')), 'the tarball of 0.1.0 went with it').to.have.length(1);
  });

  it('removes only what it installed, withdraws the approval, and State says a restart unloads it', async () => {
    const outside = await keyframe('remove', '@keyframe/plugin-arena-game-a', '--data-dir', data);
    expect(outside.code).to.equal(1);
    expect(outside.stderr).to.contain('is not installed in');
    const run = await keyframe('remove', 'keyframe-plugin-racing', '--data-dir', data);
    expect(run, run.stderr).to.deep.include({ code: 0 });
    await client.until('State', (next) =>
      next.integrationPackages.some((entry) => entry.key === 'racingGame' && entry.reason === 'Removed — restart Keyframe to unload it'),
    );
    const approvals = JSON.parse(await readFile(path.join(data, 'plugin-approvals.json'), 'utf8')) as { approvals: object };
    expect(approvals.approvals).to.not.have.property('racingGame');
    expect(existsSync(path.join(data, 'plugins', 'node_modules', 'keyframe-plugin-racing'))).to.equal(false);
    expect(await readdir(path.join(data, 'plugins', 'packages'))).to.deep.equal([]);
    expect((await keyframe('list', '--data-dir', data)).stdout).to.not.contain('racingGame');
  });

  it('shows a package copied in by other means waiting for approval, and a broken one refused, without a restart', async () => {
    const modules = path.join(data, 'plugins', 'node_modules');
    await writePlugin(path.join(modules, 'keyframe-plugin-copied'), '1.0.0', `^${CORE_VERSION}`, marker);
    const copied = path.join(modules, 'keyframe-plugin-copied', 'package.json');
    const pkg = JSON.parse(await readFile(copied, 'utf8')) as { name: string; keyframe: { integration: { key: string } } };
    pkg.name = 'keyframe-plugin-copied';
    pkg.keyframe.integration.key = 'copiedGame';
    await writeFile(copied, JSON.stringify(pkg));
    await mkdir(path.join(modules, 'keyframe-plugin-broken'));
    await writeFile(
      path.join(modules, 'keyframe-plugin-broken', 'package.json'),
      JSON.stringify({ name: 'keyframe-plugin-broken', version: '1.0.0', keyframe: { apiVersion: 1, integration: { key: 'brokenGame' } } }),
    );
    const state = await client.until(
      'State',
      (next) => next.integrationPackages.filter((entry) => entry.key === 'copiedGame' || entry.key === 'brokenGame').length === 2,
    );
    expect(state.integrations.copiedGame!.approval!.status).to.equal('pending');
    expect(state.integrationPackages.find((entry) => entry.key === 'copiedGame')).to.deep.include({ status: 'waitingForApproval' });
    const broken = state.integrationPackages.find((entry) => entry.key === 'brokenGame')!;
    expect(broken).to.deep.include({ status: 'refused', packageName: 'keyframe-plugin-broken', version: '1.0.0' });
    expect(broken.reason).to.match(/^bad keyframe manifest/);
  });
});
