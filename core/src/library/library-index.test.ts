import 'reflect-metadata';
import { expect } from 'chai';
import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { Logger, type LogRecord } from '../support/logger.js';
import { StatePublisher } from '../state/state-publisher.js';
import { ContentLibrary, newContentId } from './content-library.js';
import { encodeSidecar } from './content-sidecar.js';
import { folderStamp, LIBRARY_INDEX_FILE, LibraryIndex } from './library-index.js';

/** Longer than the time a folder must have been left alone before the index vouches for it. */
const SETTLED_MS = 2100;

describe('LibraryIndex', () => {
  let app: TestApp;
  let metadata: string;
  let logs: LogRecord[];
  let started: { dispose(): void }[];

  const logger = () => new Logger([{ write: (record) => void logs.push(record), close: () => undefined }]);
  const freshLibrary = () => {
    const library = app.fresh(ContentLibrary, [[Logger, logger()]]);
    started.push(library);
    return library;
  };
  /** A restarted service's library; `loaded` says whether it listed from the index and which folders it read again. */
  const restart = async () => {
    const library = freshLibrary();
    app.resolve(StatePublisher).follow({ library });
    await library.load();
    await library.videosChecked();
    const loaded = logs.findLast((record) => record.message === 'content loaded')!.fields as { fromIndex: boolean; reread: string[] };
    return { library, loaded };
  };
  const video = async (name: string) => {
    const file = path.join(app.dataFolder, 'Videos', 'Full Sessions', 'Arena', name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, Buffer.alloc(1024));
    return file;
  };
  const add = (library: ContentLibrary, name: string, minute: number) =>
    video(`${name}.mp4`).then((filePath) =>
      library.add({
        type: 'Session',
        filePath,
        game: 'Arena',
        durationSeconds: 60,
        createdAt: new Date(Date.UTC(2026, 10, 22, 10, minute)),
      }),
    );
  /** The index as a stop long after the last change leaves it. */
  const settle = async (library: ContentLibrary) => {
    await library.flush();
    await delay(SETTLED_MS);
    await library.flush();
  };
  const titles = (library: ContentLibrary) => library.list().map((item) => item.title);

  beforeEach(async () => {
    logs = [];
    started = [];
    app = await createTestApp({ settings: {} });
    metadata = path.join(app.dataFolder, 'cache', 'metadata');
  });
  afterEach(async () => {
    for (const library of started) library.dispose();
    await app.dispose();
  });

  it('gives an older version’s library an index, then lists from it; a sidecar replaced behind its back is read again', async () => {
    // Sidecars as today's version writes them, no index.
    const sessions = path.join(metadata, 'Full Sessions');
    await mkdir(sessions, { recursive: true });
    const written = new Map<string, string>();
    for (const [minute, title] of ['first', 'second', 'third'].entries()) {
      const id = newContentId();
      const filePath = await video(`${title}.mp4`);
      const record = {
        ...{ id, type: 'Session' as const, title, game: 'Arena', bookmarks: [], fileName: title, filePath, sizeBytes: 1024 },
        ...{ durationSeconds: 60, createdAt: new Date(Date.UTC(2026, 10, 22, 10, minute)), isImported: false, compressed: false },
      };
      written.set(id, encodeSidecar(record));
      await writeFile(path.join(sessions, `${id}.json`), written.get(id)!);
    }
    const first = await restart();
    expect(first.loaded).to.deep.include({ fromIndex: false, reread: ['Full Sessions'] });
    expect(titles(first.library)).to.deep.equal(['third', 'second', 'first']);
    await settle(first.library);
    expect(await readdir(metadata)).to.include(LIBRARY_INDEX_FILE);
    for (const [id, text] of written) expect(await readFile(path.join(sessions, `${id}.json`), 'utf8')).to.equal(text);

    const second = await restart();
    expect(second.loaded).to.deep.include({ fromIndex: true, reread: [] });
    expect(second.library.list()).to.deep.equal(first.library.list());
    expect(app.resolve(StatePublisher).current.content.map((item) => item.title)).to.deep.equal(['third', 'second', 'first']);

    // Replaced as the service (and most editors) write a file: a new file renamed over the old one.
    const [id, text] = [...written][0]!;
    await writeFile(path.join(sessions, 'edit.tmp'), text.replace('"title": "first"', '"title": "edited"'));
    await rename(path.join(sessions, 'edit.tmp'), path.join(sessions, `${id}.json`));
    const third = await restart();
    expect(third.loaded).to.deep.include({ fromIndex: true, reread: ['Full Sessions'] });
    expect(titles(third.library)).to.deep.equal(['third', 'second', 'edited']);
  });

  it('loses nothing to a crash between a sidecar write and the index write', async () => {
    const library = (await restart()).library;
    await add(library, 'kept', 0);
    await settle(library);
    // The service stopped right after writing a sidecar: the index does not know it.
    const crashed = freshLibrary();
    await crashed.load();
    const late = await add(crashed, 'late', 1);
    await crashed.update(late.id, { title: 'renamed late' });
    const after = await restart();
    expect(after.loaded).to.deep.include({ fromIndex: true, reread: ['Full Sessions'] });
    expect(titles(after.library)).to.deep.equal(['renamed late', '']);
    // The index is written again from what the sidecars said.
    await settle(after.library);
    expect((await restart()).loaded).to.deep.include({ fromIndex: true, reread: [] });
  });

  it('rebuilds from the sidecars when the index is damaged or of a newer version, and starts anyway', async () => {
    const library = (await restart()).library;
    await add(library, 'a', 0);
    await add(library, 'b', 1);
    await library.flush();
    const index = path.join(metadata, LIBRARY_INDEX_FILE);
    const sound = await readFile(index, 'utf8');
    const damaged = [
      sound.slice(0, sound.length / 2),
      JSON.stringify({ version: 99, folders: {} }),
      sound.replace(/"id":"[0-9a-f]{32}"/, '"id":"0"'),
    ];
    for (const text of damaged) {
      await writeFile(index, text);
      const { library: restarted, loaded } = await restart();
      expect(loaded).to.deep.include({ fromIndex: false, reread: ['Full Sessions'] });
      expect(restarted.list()).to.have.length(2);
      await restarted.flush();
      expect(JSON.parse(await readFile(index, 'utf8'))).to.deep.include({ version: 1 });
    }
  });

  it('does not vouch for a folder changed just before the index was written', async () => {
    const library = (await restart()).library;
    const item = await add(library, 'a', 0);
    await library.flush();
    // Changed in place, in the same instant as far as a coarse folder clock can tell: only the missing stamp catches it.
    const sidecar = library.sidecarPath(item);
    await writeFile(sidecar, (await readFile(sidecar, 'utf8')).replace('"title": ""', '"title": "in place"'));
    const after = await restart();
    expect(after.loaded).to.deep.include({ fromIndex: true, reread: ['Full Sessions'] });
    expect(titles(after.library)).to.deep.equal(['in place']);
  });

  it('lists items whose video is gone until the check of the videos drops them, and keeps them in the index', async () => {
    const library = (await restart()).library;
    const gone = await add(library, 'gone', 0);
    await add(library, 'kept', 1);
    await settle(library);
    await rm(gone.filePath);
    const restarted = freshLibrary();
    await restarted.load({ checkVideosLater: true });
    await delay(100);
    expect(restarted.list()).to.have.length(2);
    await restarted.checkVideos();
    expect(restarted.list().map((item) => item.fileName)).to.deep.equal(['kept']);
    expect((await restart()).loaded).to.deep.include({ fromIndex: true, reread: [] });
    expect(await stat(library.sidecarPath(gone)))
      .to.have.property('size')
      .above(0);
  });

  it('writes one index for a burst of changes', async () => {
    const index = new LibraryIndex(() => metadata, logger(), 50);
    started.push(index);
    const library = (await restart()).library;
    const item = await add(library, 'a', 0);
    logs = [];
    await Promise.all(Array.from({ length: 20 }, (_, round) => index.written('Full Sessions', { ...item, title: `round ${round}` })));
    await delay(300);
    expect(logs.filter((record) => record.message === 'library index written')).to.have.length(1);
    const written = JSON.parse(await readFile(path.join(metadata, LIBRARY_INDEX_FILE), 'utf8')) as {
      folders: Record<string, { sidecars: Record<string, { title: string }> }>;
    };
    expect(written.folders['Full Sessions']!.sidecars[`${item.id}.json`]!.title).to.equal('round 19');
  });

  it('lists an index written before favourites with no favourite, and keeps a favourite in the index and the sidecar', async () => {
    // The metadata folder as the version before favourites wrote it (test-data/library-before-favorites/README.md),
    // moved into this data folder: its paths and the folder stamp made this folder's, as if written here.
    const writtenIn = '/tmp/keyframe-test-app-q5lO3M';
    const id = 'bf8ba734ae8b4f568261886962955641';
    await cp(fileURLToPath(new URL('../../test-data/library-before-favorites/metadata/', import.meta.url)), metadata, { recursive: true });
    const sidecar = path.join(metadata, 'Clips', `${id}.json`);
    await writeFile(sidecar, (await readFile(sidecar, 'utf8')).replaceAll(writtenIn, app.dataFolder));
    const indexFile = path.join(metadata, LIBRARY_INDEX_FILE);
    const index = JSON.parse((await readFile(indexFile, 'utf8')).replaceAll(writtenIn, app.dataFolder)) as {
      folders: Record<string, { stamp?: unknown }>;
    };
    index.folders['Clips']!.stamp = await folderStamp(path.join(metadata, 'Clips'));
    await writeFile(indexFile, JSON.stringify(index));
    const videoFile = path.join(app.dataFolder, 'Videos', 'Clips', 'Arena', 'ace round.mp4');
    await mkdir(path.dirname(videoFile), { recursive: true });
    await writeFile(videoFile, Buffer.alloc(2048));

    const before = await restart();
    expect(before.loaded).to.deep.include({ fromIndex: true, reread: [] });
    const listed = app.resolve(StatePublisher).current.content;
    expect(listed).to.have.length(1);
    expect(listed[0]).to.deep.include({ id, title: 'Ace round', uploadUrl: 'https://watch.example/abc123' });
    expect(listed[0]).to.not.have.property('favorite');

    await before.library.update(id, { favorite: true });
    await settle(before.library);
    expect(JSON.parse(await readFile(sidecar, 'utf8'))).to.include({ favorite: true, title: 'Ace round' });
    const after = await restart();
    expect(after.loaded).to.deep.include({ fromIndex: true, reread: [] });
    expect(after.library.get(id)).to.include({ favorite: true });
    expect(app.resolve(StatePublisher).current.content[0]).to.include({ id, favorite: true });
  });
});
