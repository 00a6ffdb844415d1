import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { GameModeChange, GameModeRegistry, GameModeValues } from '../platform/windows-game-mode.js';
import { createTestApp, type TestApp } from '../testing/fixtures.js';
import { SettingsStore } from './settings-store.js';
import { GAME_MODE_REGISTRY, WindowsGameModeSetting } from './windows-game-mode-setting.js';

/** The user's registry, in memory. */
class FakeRegistry implements GameModeRegistry {
  constructor(public values: GameModeValues) {}
  read() {
    return Promise.resolve({ ...this.values });
  }
  apply(changes: readonly GameModeChange[]) {
    for (const { name, value } of changes) this.values[name] = value;
    return Promise.resolve();
  }
}

describe('WindowsGameModeSetting', () => {
  let app: TestApp;
  let registry: FakeRegistry;
  beforeEach(async () => {
    registry = new FakeRegistry({ AutoGameModeEnabled: 1, AllowAutoGameMode: null });
    app = await createTestApp({ settings: { disableWindowsGameMode: false }, overrides: [[GAME_MODE_REGISTRY, registry]] });
  });
  afterEach(() => app.dispose());

  it('turns Game Mode off on a change of the setting, keeps the user’s values across a restart, and restores them', async () => {
    const setting = app.resolve(WindowsGameModeSetting);
    await setting.start();
    expect(registry.values).to.deep.equal({ AutoGameModeEnabled: 1, AllowAutoGameMode: null });
    expect(existsSync(setting.file)).to.equal(false);

    const settings = app.resolve(SettingsStore);
    const applied: boolean[] = [];
    const apply = setting.apply.bind(setting);
    setting.apply = (disable) => {
      applied.push(disable);
      return apply(disable);
    };
    settings.replace({ ...settings.current, frameRate: 30 });
    settings.replace({ ...settings.current, disableWindowsGameMode: true });
    settings.replace({ ...settings.current, frameRate: 60 });
    expect(applied, 'applied on a change of the setting only').to.deep.equal([true]);
    await setting.apply(true); // after the one the change started
    expect(registry.values).to.deep.equal({ AutoGameModeEnabled: 0, AllowAutoGameMode: null });
    expect(JSON.parse(await readFile(setting.file, 'utf8'))).to.deep.equal({ AutoGameModeEnabled: 1, AllowAutoGameMode: null });
    setting.stop();

    const restarted = app.fresh(WindowsGameModeSetting);
    await restarted.start();
    expect(JSON.parse(await readFile(setting.file, 'utf8'))).to.deep.equal({ AutoGameModeEnabled: 1, AllowAutoGameMode: null });
    settings.replace({ ...settings.current, disableWindowsGameMode: false });
    await restarted.apply(false);
    expect(registry.values).to.deep.equal({ AutoGameModeEnabled: 1, AllowAutoGameMode: null });
    expect(existsSync(setting.file)).to.equal(false);
    restarted.stop();
  });

  it('survives a registry that cannot be written (no rejection) and keeps the user’s values for later', async () => {
    registry.apply = () => Promise.reject(new Error('ERROR: Access is denied.'));
    const setting = app.resolve(WindowsGameModeSetting);
    await setting.apply(true);
    expect(registry.values.AutoGameModeEnabled).to.equal(1);
    expect(JSON.parse(await readFile(setting.file, 'utf8'))).to.deep.equal({ AutoGameModeEnabled: 1, AllowAutoGameMode: null });
  });
});
