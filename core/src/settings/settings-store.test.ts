import 'reflect-metadata';
import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ServiceOptions } from '../service-options.js';
import { Logger } from '../support/logger.js';
import { SettingsStore } from './settings-store.js';

/** settings.json as the version before the desktop app's settings wrote it on a first run. */
const BEFORE_DESKTOP_APP = new URL('../../test-data/settings/before-desktop-app.json', import.meta.url);

describe('SettingsStore', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-settings-store-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('loads a settings.json written before the desktop app settings with their defaults, resetting nothing', async () => {
    const older = JSON.parse(await readFile(BEFORE_DESKTOP_APP, 'utf8')) as Record<string, unknown>;
    Object.assign(older, { contentFolder: path.join(folder, 'Videos'), cacheFolder: path.join(folder, 'cache'), frameRate: 30 });
    const options = new ServiceOptions(folder, 0, undefined, [], path.join(folder, 'Videos'));
    await writeFile(options.settingsFile, JSON.stringify(older));
    const store = new SettingsStore(options, new Logger([]));

    const report = await store.load();

    expect(report.repairedFields).to.deep.equal([]);
    expect(store.current).to.deep.include({
      frameRate: 30,
      runOnStartup: false,
      notifyReplaySaved: true,
      notifyClipSaved: true,
      notifyAutoRecording: true,
      notifyIntegrationFailed: true,
      notifyUpdateReady: true,
    });
  });
});
