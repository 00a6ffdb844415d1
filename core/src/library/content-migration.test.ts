import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EVENT_SINK } from '../protocol/event-sink.js';
import { RecordedEvents } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { ContentLibrary } from './content-library.js';
import { ContentMigration } from './content-migration.js';
import { DATA_MIGRATIONS, DataMigrations, type DataMigration } from './data-migrations.js';
import { SettingsStore } from '../settings/settings-store.js';

describe('migrations', () => {
  let folder: string;
  let events: RecordedEvents;
  let app: TestApp;
  let settings: SettingsStore;
  let library: ContentLibrary;

  beforeEach(async () => {
    events = new RecordedEvents();
    app = await createTestApp({ settings: {}, overrides: [[EVENT_SINK, events]] });
    folder = app.dataFolder;
    settings = app.resolve(SettingsStore);
    library = app.resolve(ContentLibrary);
    await library.load();
  });
  afterEach(() => app.dispose());

  const video = async (file: string, bytes = 2048) => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, Buffer.alloc(bytes, 7));
    return file;
  };

  describe('ContentMigration', () => {
    /** A new migration over the app's library and (idle) recorder. */
    const migration = () => app.fresh(ContentMigration);

    it('moves items outside the layout into it, updates their sidecars, and ignores a second request while running', async () => {
      const content = settings.current.contentFolder;
      const stray = await library.add({
        type: 'Clip',
        game: 'Arena: Legends',
        durationSeconds: 3,
        title: 'Ace round',
        filePath: await video(path.join(content, 'old clips', 'ace.mp4')),
      });
      const outside = await library.add({
        type: 'Session',
        game: 'Arena: Legends',
        durationSeconds: 3,
        filePath: await video(path.join(folder, 'elsewhere', 'long.mp4'), 4096),
      });
      const placed = await library.add({
        type: 'Session',
        game: 'Arena: Legends',
        durationSeconds: 3,
        filePath: await video(library.contentPath('Session', 'Arena: Legends', 'fine.mp4')),
      });
      // Something already at the target name: the moved video takes the next free name.
      await video(library.contentPath('Clip', 'Arena: Legends', 'ace.mp4'));
      const service = migration();
      expect(
        service
          .misplaced()
          .map((item) => item.id)
          .sort(),
      ).to.deep.equal([stray.id, outside.id].sort());

      const [first, second] = await Promise.all([service.migrate(), service.migrate()]);
      expect(first).to.deep.equal({ moved: 2, failed: 0, ran: true });
      expect(second.ran).to.equal(false);

      const clipPath = path.join(content, 'Clips', 'Arena_ Legends', 'ace (1).mp4');
      expect(library.get(stray.id)).to.deep.include({ filePath: clipPath.replaceAll('\\', '/'), fileName: 'ace (1)' });
      expect(library.get(outside.id)!.filePath).to.equal(
        library.contentPath('Session', 'Arena: Legends', 'long.mp4').replaceAll('\\', '/'),
      );
      expect(library.get(placed.id)!.filePath).to.equal(placed.filePath);
      expect(existsSync(path.join(content, 'old clips', 'ace.mp4'))).to.equal(false);
      expect(existsSync(path.join(folder, 'elsewhere', 'long.mp4'))).to.equal(false);
      expect((await readFile(clipPath)).length).to.equal(2048);
      const sidecar = JSON.parse(await readFile(library.sidecarPath(stray), 'utf8')) as { filePath: string };
      expect(sidecar.filePath).to.equal(clipPath.replaceAll('\\', '/'));

      const progress = events.of('ContentMigrationProgress');
      expect(new Set(progress.map((event) => event.id)).size).to.equal(1);
      expect(progress[0]!.id).to.match(/^[0-9a-f]{32}$/);
      expect(progress.map((event) => [event.status, event.progress, event.currentFileIndex, event.totalFiles])).to.deep.equal([
        ['migrating', 0, 1, 2],
        ['migrating', 50, 2, 2],
        ['done', 100, 2, 2],
      ]);
      expect(progress.map((event) => event.fileName)).to.include('Ace round');
      expect(progress.at(-1)!.message).to.equal('Moved 2 videos to your content folder.');

      expect(await migration().migrate()).to.deep.equal({ moved: 0, failed: 0, ran: true });
      expect(events.of('ContentMigrationProgress').at(-1)).to.deep.include({ progress: 100, status: 'done', message: 'Nothing to move.' });
    });

    it('reports -1 when a video cannot be moved, and moves the others', async () => {
      const content = settings.current.contentFolder;
      const gone = await library.add({
        type: 'Clip',
        game: 'Arena',
        durationSeconds: 3,
        filePath: await video(path.join(content, 'loose', 'gone.mp4')),
      });
      const fine = await library.add({
        type: 'Clip',
        game: 'Arena',
        durationSeconds: 3,
        filePath: await video(path.join(content, 'loose', 'fine.mp4')),
      });
      await rm(gone.filePath);
      expect(await migration().migrate()).to.deep.equal({ moved: 1, failed: 1, ran: true });
      expect(library.get(fine.id)!.filePath).to.equal(library.contentPath('Clip', 'Arena', 'fine.mp4').replaceAll('\\', '/'));
      expect(library.get(gone.id)!.filePath).to.equal(gone.filePath);
      const last = events.of('ContentMigrationProgress').at(-1)!;
      expect(last).to.deep.include({ progress: -1, status: 'error' });
      expect(last.message).to.match(/^Moved 1 video to your content folder\. 1 could not be moved/);
    });
  });

  describe('DataMigrations', () => {
    it('applies each migration once across restarts, records it, reports MigrationStatus in words, retries a failed one', async () => {
      const runs: string[] = [];
      let failing = true;
      const registry: DataMigration[] = [
        {
          id: '0002_second',
          description: 'Second step',
          run: async () => {
            runs.push('0002');
            if (failing) throw new Error('not yet');
          },
        },
        {
          id: '0001_first',
          description: 'First step',
          run: async ({ dataFolder }) => {
            runs.push('0001');
            expect(dataFolder).to.equal(folder);
          },
        },
        {
          id: '0003_third',
          description: 'Third step',
          run: async () => {
            runs.push('0003');
          },
        },
      ];
      /** The migrations as a restarted service runs them. */
      const start = () => app.fresh(DataMigrations).run(registry);

      expect(await app.fresh(DataMigrations).anyPending(registry)).to.equal(true);
      expect(await start()).to.deep.equal(['0001_first']);
      expect(runs).to.deep.equal(['0001', '0002']);
      expect(events.of('MigrationStatus')).to.deep.equal([
        { isRunning: true, currentMigration: 'First step' },
        { isRunning: true, currentMigration: 'Second step' },
        { isRunning: false, currentMigration: null },
      ]);

      failing = false;
      expect(await start()).to.deep.equal(['0002_second', '0003_third']);
      expect(runs).to.deep.equal(['0001', '0002', '0002', '0003']);
      const record = JSON.parse(await readFile(path.join(folder, 'migrations.json'), 'utf8')) as { applied: { id: string }[] };
      expect(record.applied.map((entry) => entry.id)).to.deep.equal(['0001_first', '0002_second', '0003_third']);

      const before = events.sent.length;
      expect(await app.fresh(DataMigrations).anyPending(registry)).to.equal(false);
      expect(await start()).to.deep.equal([]);
      expect(runs).to.have.length(4);
      expect(events.sent.length).to.equal(before); // nothing pending: no MigrationStatus
    });

    it('0001 removes pending thumbnails an interrupted run left behind', async () => {
      const pending = path.join(settings.current.cacheFolder, 'thumbnails', 'pending', 'abc.jpeg');
      const kept = path.join(settings.current.cacheFolder, 'thumbnails', 'Clips', '0123.jpeg');
      await video(pending, 10);
      await video(kept, 10);
      expect(await app.resolve(DataMigrations).run(DATA_MIGRATIONS)).to.include('0001_remove_orphaned_pending_thumbnails');
      expect(existsSync(pending)).to.equal(false);
      expect(existsSync(kept)).to.equal(true);
    });
  });
});
