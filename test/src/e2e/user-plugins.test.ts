// Third-party integrations installed in the user's plugins folder wait for the user's approval, then
// load with the service's own SDK and DI container, even when npm put other copies of them beside the plugin.
import 'reflect-metadata';
import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

async function writePackage(folder: string, packageJson: object, source: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'package.json'), JSON.stringify(packageJson));
  await writeFile(path.join(folder, 'index.js'), source);
}

const PLUGIN_SOURCE = `
import { inject, injectable } from 'tsyringe';
import { Bookmarks } from '@keyframe/core';
class UserGame {
  constructor(bookmarks) { this.bookmarks = bookmarks; }
  async enable() {}
  async activate() {}
  async deactivate() {}
}
Reflect.defineMetadata('design:paramtypes', [Object], UserGame);
inject(Bookmarks)(UserGame, undefined, 0);
export default injectable()(UserGame) ?? UserGame;
`;

describe('plugins in the user plugins folder', function () {
  this.timeout(30_000);
  let data: TempFolder;
  let service: ServiceProcess;
  let client: ProtocolClient;

  before(async () => {
    data = await createTempFolder();
    const modules = path.join(data.path, 'plugins', 'node_modules');
    // What `npm install --prefix <data>/plugins` leaves: the plugin, and copies of its peers beside it.
    const decoy = "throw new Error('the plugin got its own copy instead of the service\\'s');";
    await writePackage(path.join(modules, 'tsyringe'), { name: 'tsyringe', version: '4.10.0', main: 'index.js' }, decoy);
    await writePackage(
      path.join(modules, '@keyframe', 'core'),
      { name: '@keyframe/core', version: '0.1.0', type: 'module', main: 'index.js' },
      decoy,
    );
    await writePackage(
      path.join(modules, 'keyframe-plugin-user-game'),
      {
        name: 'keyframe-plugin-user-game',
        version: '1.0.0',
        type: 'module',
        main: 'index.js',
        peerDependencies: { '@keyframe/core': '0.1.0' },
        keyframe: {
          apiVersion: 1,
          integration: {
            key: 'userGame',
            displayName: 'User game',
            events: ['Kill'],
            games: [{ name: 'User Game', executables: ['user-game.exe'] }],
            feeds: [],
          },
        },
      },
      PLUGIN_SOURCE,
    );
    await writePackage(
      path.join(modules, 'keyframe-plugin-broken'),
      {
        name: 'keyframe-plugin-broken',
        version: '1.0.0',
        main: 'index.js',
        keyframe: { apiVersion: 1, integration: { key: 'brokenGame' } },
      },
      '',
    );
    service = await ServiceProcess.start({ dataFolder: data.path });
    client = await ProtocolClient.connect(service.url);
  });
  after(async () => {
    await client?.close();
    await service?.stop();
    await data?.remove();
  });

  it('shows the new plugin waiting for approval, switched off', async () => {
    const { state } = await client.handshake();
    expect(state.integrations.userGame).to.deep.include({ status: 'disabled' });
    expect(state.integrations.userGame!.approval).to.deep.include({
      status: 'pending',
      packageName: 'keyframe-plugin-user-game',
      version: '1.0.0',
    });
  });

  it("once approved, loads the plugin with the service's SDK, adds its settings key and reports it idle", async () => {
    client.send('ApproveIntegration', { key: 'userGame', hash: client.latest('State')!.integrations.userGame!.approval!.hash });
    const state = await client.until('State', (next) => next.integrations.userGame?.status === 'idle');
    expect(state.integrations.userGame!.approval!.status).to.equal('approved');
    expect(state.integrations.userGame!.message).to.match(/Waiting for User Game/);
    const settings = await client.until('Settings', (next) => next.gameIntegrations.userGame !== undefined);
    expect(settings.gameIntegrations.userGame).to.deep.equal({ enabled: true });
  });

  it('reports a refused package with the reason', async () => {
    const state = await client.until('State', () => true);
    expect(state.integrations.brokenGame).to.deep.include({ status: 'failed' });
    expect(state.integrations.brokenGame!.message).to.match(/bad keyframe manifest/);
  });
});
