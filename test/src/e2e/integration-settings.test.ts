// An integration's own settings (declared by its class, stored beside `enabled` in gameIntegrations.<key>)
// over the real WebSocket: shown in State, saved, kept across a restart, checked, refused during a recording,
// and a settings file of this version loaded as it is (also an entry of an integration not installed).
import 'reflect-metadata';
import type { IntegrationSettingValue, Settings } from '@keyframe/core/protocol';
import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serviceUnderTest } from '../kit/service-under-test.js';

const blockSandbox = (gameFolder: IntegrationSettingValue) => ({
  gameIntegrations: { blockSandbox: { enabled: true, gameFolder } },
});
const gameFolderIn = (settings: Settings) => settings.gameIntegrations.blockSandbox?.gameFolder;

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'integration-settings', 'settings.json');

describe('integration settings', function () {
  this.timeout(60000);
  const under = serviceUnderTest();
  const settingsFile = () => path.join(under.data.path, 'settings.json');
  const readSettingsFile = async () => JSON.parse(await readFile(settingsFile(), 'utf8')) as Settings;
  /** settings.json once `saved` holds (writes land a moment after the echo). */
  const savedSettings = async (saved: (settings: Settings) => boolean) => {
    const deadline = Date.now() + 3000;
    for (;;) {
      const settings = await readSettingsFile();
      if (saved(settings) || Date.now() > deadline) return settings;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it("loads a settings file of this version as it is: an integration's values, and the entry of one not installed", async () => {
    const fixture = JSON.parse(await readFile(FIXTURE, 'utf8')) as Settings;
    const written = { ...fixture, contentFolder: under.content.path, cacheFolder: path.join(under.data.path, 'cache') };
    await writeFile(settingsFile(), `${JSON.stringify(written, null, 2)}\n`);

    const client = await under.start();
    const { settings, state } = await client.handshake();
    expect(settings.gameIntegrations.blockSandbox).to.deep.equal({ enabled: true, gameFolder: '/games/CurseForge/Instances/All the Mods' });
    expect(settings.gameIntegrations.retiredGame).to.deep.equal({ enabled: false, region: 'eu', apiKeyName: 'retired-key' });
    expect(state.integrationSettings.blockSandbox!.properties.gameFolder).to.deep.include({ type: 'string', default: '' });
    expect(state.integrationSettings).to.not.have.property('retiredGame');
    expect(await readSettingsFile()).to.deep.equal(written);
  });

  it('saves a setting through UpdateSettings, keeps it across a restart, refuses a wrong value and any change during a recording', async () => {
    const client = await under.start();
    await client.handshake();
    client.send('UpdateSettings', blockSandbox('/games/MultiMC/instances/A'));
    expect((await client.next('Settings')).gameIntegrations.blockSandbox).to.deep.equal({
      enabled: true,
      gameFolder: '/games/MultiMC/instances/A',
    });

    client.send('UpdateSettings', blockSandbox(42));
    const invalid = await client.next('CommandRejected');
    expect(invalid).to.deep.include({ method: 'UpdateSettings', code: 'InvalidParameters' });
    expect(invalid.message).to.equal('Settings not saved: gameIntegrations.blockSandbox.gameFolder is 42, it must be a text');
    await savedSettings((settings) => gameFolderIn(settings) === '/games/MultiMC/instances/A');

    await under.process.stop();
    const restarted = await under.start();
    const { settings } = await restarted.handshake();
    expect(settings.gameIntegrations.blockSandbox).to.deep.equal({ enabled: true, gameFolder: '/games/MultiMC/instances/A' });

    restarted.send('UpdateSettings', { contentFolder: under.content.path, resolution: '720p', frameRate: 30 });
    await restarted.next('Settings');
    restarted.send('StartRecording');
    await restarted.next('State', (state) => state.recording !== null, 15000);
    restarted.send('UpdateSettings', blockSandbox('/elsewhere'));
    const refused = await restarted.next('CommandRejected');
    expect(refused).to.deep.include({ method: 'UpdateSettings', code: 'NotAllowed' });
    expect(refused.message).to.equal(
      'Game integrations cannot be switched on or off or have their settings changed during a recording (blockSandbox). Stop the recording first.',
    );
    restarted.send('StopRecording');
    await restarted.next('State', (state) => state.recording === null, 15000);
    expect(gameFolderIn(await readSettingsFile())).to.equal('/games/MultiMC/instances/A');
  });
});
