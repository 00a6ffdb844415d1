// Storage with the real service: the content folder's size in State, SetVideoLocation,
// SetCacheLocation moving the sidecars, refused paths, and the low-disk stop. (The storage limit's
// question and the folder rules: test/src/security/storage.test.ts.)
import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readdir, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { State } from '@keyframe/core/protocol';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

const GIB = 1024 ** 3;

/** A sparse file: `bytes` of logical size that take no room on the disk. */
async function sparseFile(file: string, bytes: number): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, '');
  await truncate(file, Math.round(bytes));
}

/** Asks RefreshStorageStats; the State it answers with (the first that satisfies `predicate`). */
async function measuredNow(client: ProtocolClient, predicate: (state: State) => boolean = () => true): Promise<State> {
  client.send('RefreshStorageStats');
  return client.next('State', predicate, 2000);
}

describe('storage', function () {
  this.timeout(60000);
  let data: TempFolder;
  let content: TempFolder;
  let other: TempFolder;
  let service: ServiceProcess | undefined;
  let client: ProtocolClient | undefined;

  beforeEach(async () => {
    data = await createTempFolder();
    content = await createTempFolder('keyframe-content-');
    other = await createTempFolder('keyframe-other-');
  });
  afterEach(async () => {
    await client?.close();
    await service?.stop();
    client = undefined;
    service = undefined;
    await Promise.all([data.remove(), content.remove(), other.remove()]);
  });

  const start = async (env: NodeJS.ProcessEnv = {}) => {
    await client?.close();
    await service?.stop();
    service = await ServiceProcess.start({ dataFolder: data.path, legacyPort: 'off', env: { KEYFRAME_CAPTURE: 'synthetic', ...env } });
    client = await ProtocolClient.connect(service.url);
    const { settings, state } = await client.handshake();
    return { client, settings, state };
  };

  it("reports the drive space; files in the content folder that are not the library's do not count", async () => {
    await sparseFile(path.join(content.path, 'Full Sessions', 'Arena', 'a.mp4'), 0.25 * GIB);
    const { client: frontend, state } = await start();
    expect(state.recordingDriveFreeGb).to.be.a('number').and.greaterThan(0);
    expect(state.recordingDriveUsedGb).to.be.a('number').and.greaterThan(0);
    frontend.send('UpdateSettings', { contentFolder: content.path });
    expect((await frontend.next('Settings')).contentFolder).to.equal(content.path);

    await sparseFile(path.join(content.path, 'Clips', 'b.mp4'), 0.5 * GIB);
    const restarted = await start(); // measured during start-up
    expect(restarted.settings.contentFolder).to.equal(content.path);
    expect(restarted.state.currentFolderSizeGb).to.equal(0);

    // RefreshStorageStats measures now: 64 MiB written to the content folder's drive show in the State it answers with.
    const before = await measuredNow(restarted.client);
    await writeFile(path.join(content.path, 'written.bin'), Buffer.alloc(64 * 1024 ** 2, 1));
    const asked = Date.now();
    const after = await measuredNow(restarted.client, (state) => state.recordingDriveFreeGb !== before.recordingDriveFreeGb);
    expect(Date.now() - asked, 'answered at once, not at the next periodic measurement').to.be.below(2000);
    expect(after.recordingDriveUsedGb).to.not.equal(before.recordingDriveUsedGb);
    expect(after.currentFolderSizeGb).to.equal(0);
    expect(restarted.client.schemaViolations).to.deep.equal([]);
  });

  it("SetVideoLocation switches at once to a folder that holds more than the limit in files that are not the library's, and deletes nothing", async () => {
    const { client: frontend, settings } = await start();
    frontend.send('UpdateSettings', { contentFolder: content.path, storageLimit: 1 });
    await frontend.next('Settings');
    const big = path.join(other.path, 'Big Videos');
    await sparseFile(path.join(big, 'huge.mp4'), 1.5 * GIB);
    expect(settings.contentFolder).to.not.equal(big);

    frontend.send('SetVideoLocation', { Path: big });
    expect((await frontend.next('Settings')).contentFolder).to.equal(big);
    expect(existsSync(path.join(big, 'huge.mp4'))).to.equal(true);

    // A new folder is created.
    const fresh = path.join(other.path, 'Fresh', 'Videos');
    frontend.send('SetVideoLocation', { Path: fresh });
    expect((await frontend.next('Settings')).contentFolder).to.equal(fresh);
    expect(existsSync(fresh)).to.equal(true);
    expect(frontend.all('StorageWarning')).to.deep.equal([]);
    expect(frontend.schemaViolations).to.deep.equal([]);
  });

  it('refuses relative paths and paths with ".."', async () => {
    const { client: frontend, settings } = await start();
    for (const Path of ['relative/videos', './videos', `${other.path}/../escape`, '../../etc']) {
      frontend.send('SetVideoLocation', { Path });
      expect(await frontend.next('CommandRejected'), Path).to.deep.include({ method: 'SetVideoLocation', code: 'InvalidParameters' });
      frontend.send('SetCacheLocation', { Path });
      expect(await frontend.next('CommandRejected'), Path).to.deep.include({ method: 'SetCacheLocation', code: 'InvalidParameters' });
    }
    expect(frontend.events.filter((event) => event.method === 'Settings')).to.have.length(1);
    expect(existsSync(path.join(path.dirname(other.path), 'escape'))).to.equal(false);
    const { settings: after } = await frontend.handshake();
    expect(after.contentFolder).to.equal(settings.contentFolder);
    expect(after.cacheFolder).to.equal(settings.cacheFolder);
  });

  it('SetCacheLocation moves the sidecars; the library still lists its items, also after a restart', async () => {
    const { client: frontend } = await start();
    frontend.send('UpdateSettings', { resolution: '720p', frameRate: 30, contentFolder: content.path });
    await frontend.next('Settings');
    frontend.send('StartRecording');
    await frontend.next('State', (state) => state.recording !== null, 15000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    frontend.send('StopRecording');
    const saved = await frontend.next('State', (state) => state.recording === null && state.content.length === 1, 20000);
    const item = saved.content[0]!;
    const oldCache = path.join(data.path, 'cache');
    expect(await readdir(path.join(oldCache, 'metadata', 'Full Sessions'))).to.deep.equal([`${item.id}.json`]);

    frontend.send('StartRecording');
    await frontend.next('State', (state) => state.recording !== null, 15000);
    frontend.send('SetCacheLocation', { Path: path.join(other.path, 'cache') });
    expect(await frontend.next('CommandRejected')).to.deep.include({ method: 'SetCacheLocation', code: 'NotAllowed' });
    frontend.send('SetVideoLocation', { Path: path.join(other.path, 'videos') });
    expect(await frontend.next('CommandRejected')).to.deep.include({ method: 'SetVideoLocation', code: 'NotAllowed' });
    frontend.send('StopRecording');
    const stopped = await frontend.next('State', (state) => state.recording === null && state.content.length === 2, 20000);

    const newCache = path.join(other.path, 'new cache');
    frontend.send('SetCacheLocation', { Path: newCache });
    const echoed = await frontend.next('Settings');
    expect(echoed.cacheFolder).to.equal(newCache);
    const moved = await frontend.until('State', (state) => state.cacheFolder === newCache.replaceAll('\\', '/'));
    expect(moved.content.map((listed) => listed.id)).to.have.members(stopped.content.map((listed) => listed.id));
    expect(await readdir(path.join(newCache, 'metadata', 'Full Sessions'))).to.have.members(
      stopped.content.map((listed) => `${listed.id}.json`),
    );
    expect(await readdir(path.join(newCache, 'thumbnails', 'Full Sessions'))).to.have.length(2);
    expect(existsSync(path.join(oldCache, 'metadata'))).to.equal(false);
    expect(existsSync(path.join(oldCache, 'thumbnails'))).to.equal(false);

    const restarted = await start();
    expect(restarted.settings.cacheFolder).to.equal(newCache);
    expect(restarted.state.content.map((listed) => listed.id)).to.have.members(stopped.content.map((listed) => listed.id));
    expect(restarted.client.schemaViolations).to.deep.equal([]);
  });

  it('stops a recording when the cache drive has less free space than the minimum (KEYFRAME_MIN_FREE_BYTES)', async () => {
    const { client: frontend } = await start({ KEYFRAME_MIN_FREE_BYTES: String(Number.MAX_SAFE_INTEGER) });
    frontend.send('UpdateSettings', { resolution: '720p', frameRate: 30, contentFolder: content.path });
    await frontend.next('Settings');
    frontend.send('StartRecording');
    await frontend.next('State', (state) => state.recording !== null, 15000);
    const modal = await frontend.next('ShowModal', () => true, 20000);
    expect(modal).to.deep.include({ title: 'Recording stopped: the disk is almost full', type: 'error' });
    const state = await frontend.until('State', (next) => next.recording === null && next.content.length === 1, 20000);
    expect(state.content[0]).to.deep.include({ type: 'Session' });
    expect(modal.description).to.include(state.content[0]!.filePath);
  });
});
