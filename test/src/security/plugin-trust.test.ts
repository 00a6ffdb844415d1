// Issue 18, plugin trust: the service runs plugin code only from the install itself, from folders the
// user named, and, for third-party packages in the user plugins folder, once the user approved exactly
// those contents. Packages other users could change are skipped with a warning.
import 'reflect-metadata';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

const require = createRequire(import.meta.url);
const CORE = path.dirname(require.resolve('@keyframe/core/package.json'));
const REPOSITORY_MODULES = path.resolve(CORE, '..', 'node_modules');

/**
 * A plugin package whose code leaves marker files: `<marker>.loaded` when its module is imported,
 * `<marker>.enabled` / `<marker>.disabled` from its hooks.
 */
async function writePlugin(folder: string, key: string, marker: string, version = '1.0.0'): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(folder, 'package.json'),
    JSON.stringify({
      name: `keyframe-plugin-${key.toLowerCase()}`,
      version,
      type: 'module',
      main: 'index.js',
      keyframe: {
        apiVersion: 1,
        integration: {
          key,
          displayName: `Game ${key}`,
          events: ['Kill'],
          games: [{ name: `Game ${key}`, executables: [`${key}.exe`] }],
          feeds: [],
        },
      },
    }),
  );
  await writeFile(
    path.join(folder, 'index.js'),
    `
import { writeFileSync } from 'node:fs';
const marker = ${JSON.stringify(marker)};
writeFileSync(marker + '.loaded', '');
export default class Plugin {
  async enable() { writeFileSync(marker + '.enabled', ''); }
  async disable() { writeFileSync(marker + '.disabled', ''); }
  async activate() {}
  async deactivate() {}
}
`,
  );
}

/** The documented fingerprint: SHA-256 over each file (path, NUL, length, NUL, contents) in byte order of the paths. */
async function contentHash(root: string): Promise<string> {
  const names = (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const hash = createHash('sha256');
  for (const name of names) {
    const content = await readFile(path.join(root, name));
    hash.update(`${name}\0${content.length}\0`).update(content);
  }
  return hash.digest('hex');
}

const waitFor = async (condition: () => boolean, what: string, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe('plugin trust', function () {
  this.timeout(60_000);

  describe('plugins are looked for in the install and the user plugins folder only', () => {
    let temp: TempFolder;
    let service: ServiceProcess | undefined;
    let client: ProtocolClient | undefined;
    afterEach(async () => {
      await client?.close();
      await service?.stop();
      await temp?.remove();
    });

    it('a plugin in a node_modules folder above an npm install of Keyframe is never loaded; one beside core is', async () => {
      temp = await createTempFolder();
      // <temp>/app is an npm install: core in app/node_modules/@keyframe/core, its dependencies beside it.
      const modules = path.join(temp.path, 'app', 'node_modules');
      const core = path.join(modules, '@keyframe', 'core');
      await mkdir(core, { recursive: true });
      await cp(path.join(CORE, 'package.json'), path.join(core, 'package.json'));
      await cp(path.join(CORE, 'dist'), path.join(core, 'dist'), { recursive: true });
      for (const name of await readdir(REPOSITORY_MODULES)) {
        if (name !== '@keyframe' && !name.startsWith('.')) await symlink(path.join(REPOSITORY_MODULES, name), path.join(modules, name));
      }
      const above = path.join(temp.path, 'marker-above');
      await writePlugin(path.join(temp.path, 'node_modules', 'keyframe-plugin-above'), 'aboveGame', above);
      await writePlugin(path.join(modules, 'keyframe-plugin-beside'), 'besideGame', path.join(temp.path, 'marker-beside'));

      service = await ServiceProcess.start({ dataFolder: path.join(temp.path, 'data'), main: path.join(core, 'dist', 'main.js') });
      client = await ProtocolClient.connect(service.url);
      const { state } = await client.handshake();
      expect(state.integrations).to.not.have.property('aboveGame');
      expect(state.integrations.besideGame, 'installed beside core: trusted, no approval').to.deep.include({ status: 'idle' });
      expect(state.integrations.besideGame).to.not.have.property('approval');
      expect(existsSync(`${above}.loaded`), 'the code above the install never ran').to.equal(false);
    });
  });

  describe('packages that other users can change are skipped', () => {
    let temp: TempFolder;
    let service: ServiceProcess | undefined;
    after(async () => {
      await service?.stop();
      await temp?.remove();
    });

    it('a plugin in a world-writable folder does not run, and a warning names its path and why', async function () {
      if (process.platform === 'win32') this.skip();
      temp = await createTempFolder();
      const folder = path.join(temp.path, 'dev-plugins');
      const plugin = path.join(folder, 'keyframe-plugin-open');
      const marker = path.join(temp.path, 'marker-open');
      await writePlugin(plugin, 'openGame', marker);
      await chmod(plugin, 0o777);
      service = await ServiceProcess.start({ dataFolder: path.join(temp.path, 'data'), env: { KEYFRAME_PLUGIN_DIRS: folder } });
      const client = await ProtocolClient.connect(service.url);
      const { state } = await client.handshake();
      await client.close();
      expect(state.integrations.openGame).to.deep.include({ status: 'failed' });
      expect(service.printed).to.match(/WARN .*integration package refused.*every user can write to it/);
      expect(service.printed).to.include(JSON.stringify(plugin).slice(1, -1));
      expect(existsSync(`${marker}.loaded`)).to.equal(false);
    });
  });

  describe('a third-party integration runs only once the user approved it', () => {
    let temp: TempFolder;
    let service: ServiceProcess;
    let client: ProtocolClient;
    let plugin: string;
    let marker: string;
    const start = async () => {
      service = await ServiceProcess.start({ dataFolder: path.join(temp.path, 'data') });
      client = await ProtocolClient.connect(service.url);
      return client.handshake();
    };
    const restart = async () => {
      await client.close();
      await service.stop();
      return start();
    };

    before(async () => {
      temp = await createTempFolder();
      plugin = path.join(temp.path, 'data', 'plugins', 'node_modules', 'keyframe-plugin-usergame');
      marker = path.join(temp.path, 'marker-user');
      await writePlugin(plugin, 'userGame', marker, '2.3.4');
    });
    after(async () => {
      await client?.close();
      await service?.stop();
      await temp?.remove();
    });

    it('a new plugin in the user plugins folder waits, with its name, version, path and hash in State, and none of its code runs', async () => {
      const { state, settings } = await start();
      expect(state.integrations.userGame).to.deep.include({ status: 'disabled', displayName: 'Game userGame' });
      expect(state.integrations.userGame!.approval).to.deep.equal({
        status: 'pending',
        packageName: 'keyframe-plugin-usergame',
        version: '2.3.4',
        path: plugin.split(path.sep).join('/'),
        hash: await contentHash(plugin),
      });
      expect(settings.gameIntegrations).to.not.have.property('userGame');
      expect(service.printed).to.match(/WARN .*integration waits for the user's approval/);
      expect(existsSync(`${marker}.loaded`), 'its module was never imported').to.equal(false);
    });

    it('ApproveIntegration with another hash is refused, and the plugin stays off', async () => {
      client.send('ApproveIntegration', { key: 'userGame', hash: 'f'.repeat(64) });
      const rejected = await client.until('CommandRejected', (content) => content.method === 'ApproveIntegration');
      expect(rejected.code).to.equal('InvalidParameters');
      expect(rejected.message).to.match(/not the package that was shown/);
      expect(client.latest('State')!.integrations.userGame!.approval!.status).to.equal('pending');
      expect(existsSync(`${marker}.loaded`)).to.equal(false);
    });

    it('ApproveIntegration with the hash shown runs it, and the approval survives a restart', async () => {
      const hash = client.latest('State')!.integrations.userGame!.approval!.hash;
      client.send('ApproveIntegration', { key: 'userGame', hash });
      await client.until(
        'State',
        (state) => state.integrations.userGame?.approval?.status === 'approved' && state.integrations.userGame.status === 'idle',
      );
      expect(existsSync(`${marker}.enabled`)).to.equal(true);
      await rm(`${marker}.enabled`);
      const { state } = await restart();
      expect(state.integrations.userGame).to.deep.include({ status: 'idle' });
      expect(existsSync(`${marker}.enabled`)).to.equal(true);
    });

    it('one byte of its code changed after the approval: at the next start it waits for approval again and does not run', async () => {
      await rm(`${marker}.enabled`);
      await rm(`${marker}.loaded`);
      const source = await readFile(path.join(plugin, 'index.js'), 'utf8');
      await writeFile(path.join(plugin, 'index.js'), source.replace('async activate() {}', 'async activate() {;}'));
      const { state } = await restart();
      expect(state.integrations.userGame!.approval).to.deep.include({ status: 'pending', hash: await contentHash(plugin) });
      expect(state.integrations.userGame!.status).to.equal('disabled');
      expect(existsSync(`${marker}.loaded`)).to.equal(false);
    });

    it('RevokeIntegration switches an approved plugin off, and it waits for approval again', async () => {
      client.send('ApproveIntegration', { key: 'userGame', hash: await contentHash(plugin) });
      await client.until('State', (state) => state.integrations.userGame?.status === 'idle');
      client.send('RevokeIntegration', { key: 'userGame' });
      const state = await client.until('State', (next) => next.integrations.userGame?.approval?.status === 'pending');
      expect(state.integrations.userGame!.status).to.equal('disabled');
      await waitFor(() => existsSync(`${marker}.disabled`), 'disable() called');
      const { state: afterRestart } = await restart();
      expect(afterRestart.integrations.userGame!.approval!.status).to.equal('pending');
    });

    it('an integration shipped with Keyframe needs no approval: ApproveIntegration is refused for it', async () => {
      const shipped = Object.entries(client.latest('State')!.integrations).find(([, health]) => !health.approval && health.displayName)![0];
      client.send('ApproveIntegration', { key: shipped, hash: 'a'.repeat(64) });
      const rejected = await client.until(
        'CommandRejected',
        (content) => content.method === 'ApproveIntegration' && content.code === 'NotAllowed',
      );
      expect(rejected.message).to.match(/comes with Keyframe .*needs no approval/);
    });
  });
});
