// A library left by the version before sidecar format 2 (test/fixtures/library-v1, made with that code):
// the new service migrates it on its first start and shows exactly the State.content the old one showed;
// the originals are gone only after the migration succeeded, and a second start changes nothing.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { cp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';
import { freePort } from '../kit/free-port.js';
import { HeldFile } from '../kit/held-file.js';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'library-v1');
/** Where the fixture's data folder was when it was made; its JSON files name it. */
const FIXTURE_ROOT = '/tmp/keyframe-library-v1';
/** The zone the fixture was made in: its dates were written in local time. */
const FIXTURE_ZONE = 'Europe/Berlin';

describe('library migration from sidecar format 1', function () {
  this.timeout(60000);
  let temp: TempFolder;
  let data: string;
  const metadata = () => path.join(data, 'cache', 'metadata');

  /** The text of every sidecar, by path below the metadata folder (in its type folder: the library index beside them is not one). */
  const sidecars = async (): Promise<Map<string, string>> => {
    const names = (await readdir(metadata(), { recursive: true }))
      .filter((name) => name.endsWith('.json') && path.dirname(name) !== '.')
      .sort();
    return new Map(await Promise.all(names.map(async (name) => [name, await readFile(path.join(metadata(), name), 'utf8')] as const)));
  };
  /** The service's State.content as sent, once it lists `count` items, and the service stopped again. */
  const contentShown = async (count: number): Promise<string> => {
    const service = await ServiceProcess.start({ dataFolder: data, env: { TZ: FIXTURE_ZONE } });
    try {
      const client = await ProtocolClient.connect(service.url);
      await client.handshake();
      const state = await client.until('State', (next) => next.content.length === count, 15000);
      await client.close();
      return JSON.stringify(state.content);
    } finally {
      await service.stop();
    }
  };

  beforeEach(async () => {
    temp = await createTempFolder('keyframe-library-v1-');
    data = path.join(temp.path, 'data');
    await cp(FIXTURE, data, { recursive: true });
    for (const name of (await readdir(data, { recursive: true })).filter((entry) => entry.endsWith('.json'))) {
      const file = path.join(data, name);
      await writeFile(file, (await readFile(file, 'utf8')).replaceAll(FIXTURE_ROOT, data));
    }
  });
  afterEach(() => temp.remove());

  it('shows every item as before, in sidecars of version 2, keeps no backup after success, and a second start is a no-op', async () => {
    const expected = JSON.parse(await readFile(path.join(data, 'expected-state-content.json'), 'utf8')) as unknown[];
    const originals = await sidecars();
    const settingsBefore = JSON.parse(await readFile(path.join(data, 'settings.json'), 'utf8')) as unknown;

    expect(await contentShown(expected.length)).to.equal(JSON.stringify(expected));

    const migrated = await sidecars();
    expect([...migrated.keys()]).to.deep.equal([...originals.keys()]);
    for (const [name, text] of migrated) {
      const sidecar = JSON.parse(text) as Record<string, unknown>;
      expect(sidecar, name).to.include({ version: 2 });
      expect(sidecar, name).to.not.have.any.keys('duration', 'fileSize', 'fileSizeKb', 'aiAnalysis');
      const original = JSON.parse(originals.get(name)!) as Record<string, unknown>;
      if (original.recordedFrom !== undefined)
        expect(sidecar, name).to.include({ recordedFrom: original.recordedFrom, recordedUntil: original.recordedUntil });
      if (typeof original.gameExePath === 'string') expect(sidecar, name).to.include({ gameExePath: original.gameExePath });
    }
    expect(existsSync(path.join(data, 'cache', 'metadata-v1-backup'))).to.equal(false);
    const applied = JSON.parse(await readFile(path.join(data, 'migrations.json'), 'utf8')) as { applied: { id: string }[] };
    expect(applied.applied.map((entry) => entry.id)).to.include('0002_content_sidecars_v2');
    expect(JSON.parse(await readFile(path.join(data, 'settings.json'), 'utf8'))).to.deep.equal(settingsBefore);

    const modified = await Promise.all([...migrated.keys()].map(async (name) => (await stat(path.join(metadata(), name))).mtimeMs));
    expect(await contentShown(expected.length)).to.equal(JSON.stringify(expected));
    expect(await sidecars()).to.deep.equal(migrated);
    expect(await Promise.all([...migrated.keys()].map(async (name) => (await stat(path.join(metadata(), name))).mtimeMs))).to.deep.equal(
      modified,
    );
  });

  it('tells a frontend that connects during the migration what it does, refuses its library commands, and answers it after', async () => {
    const clip = path.join(metadata(), 'Clips', 'bfab2ac4964c42128f2cefe20292325a.json');
    // The migration waits at this sidecar until the test releases it.
    const held = await HeldFile.hold(clip);
    const port = await freePort();
    const starting = ServiceProcess.start({ dataFolder: data, port, env: { TZ: FIXTURE_ZONE } });
    starting.catch(() => {}); // awaited below; a failure before then is the test's
    let client: ProtocolClient | undefined;
    try {
      await held.reading();
      client = await ProtocolClient.connect(`http://127.0.0.1:${port}/`);
      client.send('NewConnection');
      expect(await client.next('MigrationStatus')).to.deep.equal({
        isRunning: true,
        currentMigration: 'Updating the details of your videos to the new format',
      });
      client.send('DeleteContent', { FileName: 'Clip 2026.03.16 - 11.00.00', ContentType: 'Clip' });
      expect(await client.next('CommandRejected')).to.deep.equal({
        method: 'DeleteContent',
        code: 'Unavailable',
        message: 'Keyframe is updating your library; try again in a moment',
      });
      expect(client.all('Settings'), 'NewConnection is answered once the start finishes').to.deep.equal([]);

      await held.release();
      await client.until('MigrationStatus', (status) => !status.isRunning);
      await client.next('Settings', undefined, 15000);
      const state = await client.next('State');
      expect(state.content.map((item) => item.fileName)).to.include('Clip 2026.03.16 - 11.00.00');
      expect(client.schemaViolations).to.deep.equal([]);
    } finally {
      await client?.close();
      await held.release();
      await (await starting).stop();
    }
  });
});
