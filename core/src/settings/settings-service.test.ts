import 'reflect-metadata';
import { expect } from 'chai';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { EventContent } from '../protocol/index.js';
import { ServiceOptions } from '../service-options.js';
import { EVENT_SINK } from '../protocol/event-sink.js';
import { RECORDING_ACTIVITY, SettingsService } from './settings-service.js';
import { IntegrationSettingsSchemas } from './integration-settings-schemas.js';
import { SettingsStore } from './settings-store.js';
import { CAPTURE_CAPABILITIES } from '../media/capture-source.js';
import { commandRejection, RecordedEvents } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

describe('SettingsService', () => {
  let folder: string;
  let events: RecordedEvents;
  let store: SettingsStore;
  let recorder: { isRecording: boolean };
  let machine: { maxDisplayHeight: number; captureCapabilities: () => undefined };
  let service: SettingsService;
  let app: TestApp;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-settings-'));
    const options = new ServiceOptions(folder, 0, undefined, ['http://localhost:5173'], path.join(folder, 'Videos'));
    events = new RecordedEvents();
    recorder = { isRecording: false };
    machine = { maxDisplayHeight: 1080, captureCapabilities: () => undefined };
    app = await createTestApp({
      dataFolder: folder,
      settings: {},
      overrides: [
        [ServiceOptions, options],
        [EVENT_SINK, events],
        [RECORDING_ACTIVITY, recorder],
        [CAPTURE_CAPABILITIES, machine],
      ],
    });
    store = app.resolve(SettingsStore);
    service = app.resolve(SettingsService);
  });
  afterEach(async () => {
    await app.dispose();
    await rm(folder, { recursive: true, force: true });
  });

  {
    it('refuses to switch an integration while a recording starts, runs or is saved, warns, and saves nothing', async () => {
      recorder.isRecording = true;
      const before = await readFile(path.join(folder, 'settings.json'), 'utf8');

      const refusal = await commandRejection(
        service.update({ frameRate: 30, gameIntegrations: { tacticalShooter: { enabled: false } } }),
        'NotAllowed',
      );
      expect(refusal.message).to.include('tacticalShooter');
      expect(store.current.gameIntegrations.tacticalShooter!.enabled).to.equal(true);
      expect(store.current.frameRate).to.equal(60);
      const modal = events.sent.find((event) => event.method === 'ShowModal')?.content as EventContent<'ShowModal'>;
      expect(modal).to.deep.include({ type: 'warning' });
      expect(events.methods()).to.not.include('Settings');
      await store.flush();
      expect(await readFile(path.join(folder, 'settings.json'), 'utf8')).to.equal(before);
    });
  }

  it('allows other changes during a recording, and an unchanged integrations object', async () => {
    recorder.isRecording = true;
    const changed = await service.update({ frameRate: 30, gameIntegrations: { ...store.current.gameIntegrations } });
    expect(changed).to.equal(true);
    expect(store.current.frameRate).to.equal(30);
  });

  it('allows switching integrations when idle', async () => {
    expect(await service.update({ gameIntegrations: { vehicleSoccer: { enabled: false } } })).to.equal(true);
    expect(store.current.gameIntegrations.vehicleSoccer).to.deep.equal({ enabled: false });
  });

  it('refuses relative folders', async () => {
    expect((await commandRejection(service.update({ contentFolder: 'videos' }), 'InvalidParameters')).message).to.match(/absolute/);
  });

  it('refuses a folder that is a system folder, a file or read-only, naming it and why; saves nothing', async () => {
    const file = path.join(folder, 'a file.txt');
    await writeFile(file, 'not a folder');
    for (const [field, requested, why] of [
      ['contentFolder', '/', 'root'],
      ['contentFolder', '/proc', 'system folder'],
      ['cacheFolder', '/dev/null', 'system folder'],
      ['contentFolder', '/etc/keyframe', 'inside the system folder /etc'],
      ['contentFolder', file, 'a file, not a folder'],
      ['cacheFolder', os.homedir(), 'whole home folder'],
    ] as const) {
      const refusal = await commandRejection(service.update({ [field]: requested, frameRate: 24 }), 'InvalidParameters');
      expect(refusal.message, requested).to.include(field).and.include(requested).and.include(why);
    }
    expect(store.current.frameRate).to.equal(60);
    expect(events.methods()).to.deep.equal([]);
  });

  it('creates a new folder that passes the checks, and takes it', async () => {
    const videos = path.join(folder, 'New', 'Videos');
    expect(await service.update({ contentFolder: videos })).to.equal(true);
    expect((await stat(videos)).isDirectory()).to.equal(true);
  });

  it('refuses to change allowedOrigins, and takes the effective list echoed back', async () => {
    const refusal = await commandRejection(service.update({ allowedOrigins: ['https://evil.example'] }), 'NotAllowed');
    expect(refusal.message).to.include('--allowed-origin').and.include('KEYFRAME_ALLOWED_ORIGINS');
    expect(store.current.allowedOrigins).to.deep.equal([]);
    service.publish();
    const shown = events.of('Settings')[0]!;
    expect(shown.allowedOrigins).to.deep.equal(['http://localhost:5173']);
    expect(await service.update({ ...shown, frameRate: 30 })).to.equal(true);
    expect(store.current.frameRate).to.equal(30);
  });

  it('reports no change, and sends nothing, when values are the same', async () => {
    expect(await service.update({ frameRate: store.current.frameRate })).to.equal(false);
    expect(events.methods()).to.deep.equal([]);
  });

  it('drops unknown and legacy fields from a frontend', async () => {
    expect(await service.update({ whitelist: [{ name: 'x', paths: [] }], somethingElse: 1 } as never)).to.equal(false);
    expect(store.current).to.not.have.property('somethingElse');
  });

  it('records at 1440p with the high preset only where a display is that tall', () => {
    service.applyVideoPreset('high');
    expect(store.current.resolution).to.equal('1080p');
    machine.maxDisplayHeight = 1600;
    service.applyVideoPreset('high');
    expect(store.current.resolution).to.equal('1440p');
  });

  it('answers a preset applied again with Settings, but stores, saves and notifies nothing', async () => {
    service.applyClipPreset('high');
    await store.flush();
    const file = path.join(folder, 'settings.json');
    const saved = await stat(file);
    const heard: string[] = [];
    store.onChange((settings) => heard.push(settings.clipQualityPreset));
    const current = store.current;
    service.applyClipPreset('high');
    await store.flush();
    expect(store.current).to.equal(current);
    expect(heard).to.deep.equal([]);
    expect((await stat(file)).mtimeMs).to.equal(saved.mtimeMs);
    expect(events.methods()).to.deep.equal(['Settings', 'Settings']);
    expect(events.of('Settings')[1]).to.deep.include({ clipQualityPreset: 'high', clipPreset: 'medium' });
    service.applyClipPreset('custom');
    expect(heard).to.deep.equal(['custom']);
  });

  it('wakes a listener that names its fields only when one of them changes', async () => {
    const heard: number[] = [];
    store.onChange((settings) => heard.push(settings.frameRate), ['frameRate', 'gameIntegrations']);
    service.applyClipPreset('low');
    await service.update({ frameRate: 30 });
    await service.update({ gameIntegrations: { vehicleSoccer: { enabled: false } } });
    expect(heard).to.deep.equal([30, 30]);
  });

  describe("an integration's own settings", () => {
    beforeEach(() => {
      app.resolve(IntegrationSettingsSchemas).declare('arenaGameA', {
        type: 'object',
        properties: { pollSeconds: { type: 'integer', minimum: 1, maximum: 60, default: 2 } },
      });
    });
    const arena = (entry: Record<string, unknown>) => ({ gameIntegrations: { arenaGameA: { enabled: true, ...entry } } });

    it('stores a valid value beside enabled, and keeps the entry of an integration that is not installed', async () => {
      expect(await service.update({ gameIntegrations: { retiredGame: { enabled: false, region: 'eu' } } })).to.equal(true);
      expect(await service.update(arena({ pollSeconds: 5 }))).to.equal(true);
      expect(store.current.gameIntegrations.arenaGameA).to.deep.equal({ enabled: true, pollSeconds: 5 });
      expect(store.current.gameIntegrations.retiredGame).to.deep.equal({ enabled: false, region: 'eu' });
    });

    it('refuses a value its schema does not take, and a field it does not declare, naming them; saves nothing', async () => {
      const refusal = await commandRejection(service.update(arena({ pollSeconds: 0, colour: 'red' })), 'InvalidParameters');
      expect(refusal.message).to.equal(
        'Settings not saved: gameIntegrations.arenaGameA.pollSeconds is 0, it must be a whole number from 1 to 60; ' +
          'gameIntegrations.arenaGameA.colour is not a setting of arenaGameA (its settings: pollSeconds)',
      );
      expect(store.current.gameIntegrations.arenaGameA).to.deep.equal({ enabled: true });
    });

    it('refuses a change of its values during a recording, as it refuses the switch', async () => {
      recorder.isRecording = true;
      const refusal = await commandRejection(service.update(arena({ pollSeconds: 5 })), 'NotAllowed');
      expect(refusal.message).to.equal(
        'Game integrations cannot be switched on or off or have their settings changed during a recording (arenaGameA). Stop the recording first.',
      );
      expect(store.current.gameIntegrations.arenaGameA).to.deep.equal({ enabled: true });
      expect(events.methods()).to.include('ShowModal');
    });
  });
});
