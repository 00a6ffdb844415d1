// Settings as a user lives with them: saved, restored after a restart or a crash, repaired when broken.
import 'reflect-metadata';
import { expect } from 'chai';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

const readSettingsFile = async (folder: string) =>
  JSON.parse(await readFile(path.join(folder, 'settings.json'), 'utf8')) as Record<string, unknown>;

describe('settings', function () {
  this.timeout(60000);
  let data: TempFolder;
  let service: ServiceProcess | undefined;
  let client: ProtocolClient | undefined;

  beforeEach(async () => {
    data = await createTempFolder();
  });
  afterEach(async () => {
    await client?.close();
    await service?.stop();
    client = undefined;
    service = undefined;
    await data.remove();
  });

  const startAndConnect = async () => {
    service = await ServiceProcess.start({ dataFolder: data.path, legacyPort: 'off' });
    client = await ProtocolClient.connect(service.url);
    return client;
  };

  it('writes defaults on first run, with folders in the data and Videos folders', async () => {
    const { settings } = await (await startAndConnect()).handshake();
    expect(settings.cacheFolder).to.equal(path.join(data.path, 'cache'));
    expect(settings.contentFolder).to.match(/Keyframe$/);
    expect(Object.keys(settings.gameIntegrations)).to.include.members(['tacticalShooter', 'openWorldCrime']);
    expect((await readSettingsFile(data.path)).frameRate).to.equal(settings.frameRate);
  });

  it('merges a partial UpdateSettings, echoes Settings once, and keeps it across a restart', async () => {
    const first = await startAndConnect();
    await first.handshake();
    first.send('UpdateSettings', { frameRate: 30, gameIntegrations: { arenaGameA: { enabled: false } }, disableWindowsGameMode: true });
    const echoed = await first.next('Settings');
    expect(echoed.frameRate).to.equal(30);
    expect(echoed.disableWindowsGameMode).to.equal(true);
    expect(echoed.gameIntegrations.arenaGameA).to.deep.equal({ enabled: false });
    expect(echoed.gameIntegrations.tacticalShooter).to.deep.equal({ enabled: true });

    first.send('UpdateSettings', { frameRate: 30 });
    first.sendRaw('ping');
    await first.next('pong');
    expect(first.events.filter((event) => event.method === 'Settings')).to.have.length(2); // handshake + one echo

    await first.close();
    await service!.stop();
    if (process.platform !== 'win32') {
      const log = await readFile(path.join(data.path, 'logs', 'keyframe.log'), 'utf8');
      expect(log.split('disableWindowsGameMode only applies on Windows')).to.have.length(2); // said once
    }
    const { settings } = await (await startAndConnect()).handshake();
    expect(settings.frameRate).to.equal(30);
    expect(settings.gameIntegrations.arenaGameA!.enabled).to.equal(false);
    expect(settings.disableWindowsGameMode).to.equal(true);
  });

  it('takes a whole Settings object as sent back by a frontend', async () => {
    const connection = await startAndConnect();
    const { settings } = await connection.handshake();
    connection.send('UpdateSettings', { ...settings, recordingMode: 'Buffer', replayBufferDuration: 60 });
    const echoed = await connection.next('Settings');
    expect(echoed).to.deep.include({ recordingMode: 'Buffer', replayBufferDuration: 60 });
  });

  it('refuses an invalid value and saves nothing', async () => {
    const connection = await startAndConnect();
    await connection.handshake();
    connection.send('UpdateSettings', { frameRate: 30, replayBufferDuration: -5 });
    const rejection = await connection.next('CommandRejected');
    expect(rejection).to.deep.include({ method: 'UpdateSettings', code: 'InvalidParameters' });
    expect(rejection.message).to.include('replayBufferDuration');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await readSettingsFile(data.path)).frameRate).to.equal(60);
  });

  it('applies presets and sends Settings', async () => {
    const connection = await startAndConnect();
    await connection.handshake();
    connection.send('ApplyVideoPreset', { preset: 'low' });
    expect(await connection.next('Settings')).to.deep.include({
      videoQualityPreset: 'low',
      resolution: '720p',
      frameRate: 30,
      crfValue: 28,
    });
    connection.send('ApplyClipPreset', { preset: 'high' });
    expect(await connection.next('Settings')).to.deep.include({
      clipQualityPreset: 'high',
      clipQualityCpu: 20,
      clipAudioQuality: '192k',
      clipPreset: 'medium',
    });
    connection.send('ApplyVideoPreset', { preset: 'custom' });
    expect(await connection.next('Settings')).to.deep.include({ videoQualityPreset: 'custom', resolution: '720p' });
  });

  it('moves a broken settings.json aside, starts with defaults and tells the user', async () => {
    await writeFile(path.join(data.path, 'settings.json'), '{"frameRate": 30, "contentFolder": ');
    const connection = await startAndConnect();
    const { settings } = await connection.handshake();
    expect(settings.frameRate).to.equal(60);
    const modal = await connection.next('ShowModal');
    expect(modal.type).to.equal('warning');
    expect(modal.description).to.match(/damaged/);
    const files = await readdir(data.path);
    const broken = files.find((file) => file.startsWith('settings.json.broken-'));
    expect(broken, files.join(', ')).to.be.a('string');
    expect(await readFile(path.join(data.path, broken!), 'utf8')).to.equal('{"frameRate": 30, "contentFolder": ');
  });

  it('keeps unknown keys and repairs single invalid fields without losing the rest', async () => {
    await writeFile(
      path.join(data.path, 'settings.json'),
      JSON.stringify({ frameRate: 144, storageLimit: 'lots', futureSetting: { a: 1 } }),
    );
    const connection = await startAndConnect();
    const { settings } = await connection.handshake();
    expect(settings.frameRate).to.equal(144);
    expect(settings.storageLimit).to.equal(100);
    expect((await connection.next('ShowModal')).description).to.include('storageLimit');
    const saved = await readSettingsFile(data.path);
    expect(saved.futureSetting).to.deep.equal({ a: 1 });
  });

  it('migrates the legacy whitelist and blacklist into games, once', async () => {
    await writeFile(
      path.join(data.path, 'settings.json'),
      JSON.stringify({
        whitelist: [{ name: 'Arena', paths: ['C:/Games/arena.exe'] }],
        blacklist: [
          { name: 'Browser Game', paths: ['/usr/bin/browser-game'] },
          { name: 'arena', paths: ['/opt/arena'] },
        ],
      }),
    );
    const connection = await startAndConnect();
    const { settings } = await connection.handshake();
    expect(settings.games).to.deep.equal([
      { name: 'Arena', paths: ['C:/Games/arena.exe', '/opt/arena'], record: true },
      { name: 'Browser Game', paths: ['/usr/bin/browser-game'], record: false },
    ]);
    expect(settings.whitelist).to.deep.equal([]);
    expect(settings.blacklist).to.deep.equal([]);
    const gameList = connection.events.find((event) => event.method === 'GameList')!.content as { name: string }[];
    expect(gameList.map((game) => game.name)).to.include.members(['Arena', 'Browser Game']);

    connection.send('UpdateSettings', { whitelist: [{ name: 'Again', paths: [] }] });
    connection.sendRaw('ping');
    await connection.next('pong');
    expect((await readSettingsFile(data.path)).whitelist).to.deep.equal([]);
  });

  it('leaves a settings.json that parses and holds a value sent when killed during a burst of 1,000 updates', async () => {
    const connection = await startAndConnect();
    await connection.handshake();
    const sent = new Set<number>([60]);
    for (let index = 1; index <= 1000; index++) {
      const replayBufferDuration = 100 + index;
      sent.add(replayBufferDuration);
      connection.send('UpdateSettings', { replayBufferDuration });
      if (index === 700) await new Promise((resolve) => setTimeout(resolve, 120));
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    await service!.kill();
    const saved = await readSettingsFile(data.path);
    expect(
      sent.has(saved.replayBufferDuration as number) || saved.replayBufferDuration === 30,
      String(saved.replayBufferDuration),
    ).to.equal(true);
    // A kill between write and rename may leave a temp file: the next start removes it.
    await startAndConnect();
    expect((await readdir(data.path)).filter((file) => file.includes('.tmp-'))).to.deep.equal([]);
  });
});
