import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Bookmark } from '../protocol/index.js';
import { EVENT_SINK } from '../protocol/event-sink.js';
import { commandRejection, RecordedEvents } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { ContentEditor, fileNameFromTitle } from './content-editor.js';
import { ContentLibrary } from './content-library.js';
import { RecorderService } from '../recording/recorder-service.js';

/** The running recording as the editor and bookmarks see it: its session file and its bookmarks. */
class FakeRecording {
  readonly startedAt = new Date();
  readonly bookmarks: Bookmark[] = [];
  constructor(private readonly contentFilePath: string) {}
  isWriting(file: string): boolean {
    return file === this.contentFilePath;
  }
  addBookmark(bookmark: Bookmark): boolean {
    this.bookmarks.push(bookmark);
    return true;
  }
  removeBookmark(id: number): boolean {
    const index = this.bookmarks.findIndex((bookmark) => bookmark.id === id);
    if (index !== -1) this.bookmarks.splice(index, 1);
    return index !== -1;
  }
}

describe('ContentEditor', () => {
  let folder: string;
  let videos: string;
  let app: TestApp;
  let events: RecordedEvents;
  let library: ContentLibrary;
  let recording: FakeRecording | undefined;
  let editor: ContentEditor;

  const video = async (relative: string, bytes = 2048) => {
    const file = path.join(videos, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, Buffer.alloc(bytes));
    return file;
  };
  const clip = async (relative: string, seconds = 30) =>
    library.add({
      type: 'Clip',
      filePath: await video(relative),
      game: 'Arena',
      durationSeconds: seconds,
      createdAt: new Date('2026-11-22T10:00:30'),
    });

  beforeEach(async () => {
    events = new RecordedEvents();
    recording = undefined;
    const recorder = {
      get current() {
        return recording;
      },
    } as unknown as RecorderService;
    app = await createTestApp({
      settings: {},
      overrides: [
        [EVENT_SINK, events],
        [RecorderService, recorder],
      ],
    });
    folder = app.dataFolder;
    videos = path.join(folder, 'Videos');
    library = app.resolve(ContentLibrary);
    await library.load();
    editor = app.resolve(ContentEditor);
  });
  afterEach(() => app.dispose());

  it('turns titles into file names', () => {
    expect(fileNameFromTitle(' Ace: round 1/2? ')).to.equal('Ace round 12');
    expect(fileNameFromTitle('../../etc/passwd')).to.equal('etcpasswd');
    expect(fileNameFromTitle(' ... ')).to.equal(undefined);
    expect(fileNameFromTitle('nul')).to.equal('nul_');
  });

  it('renames: moves the video to the title, adds (1) on a collision, keeps the id, blank title gives the start time', async () => {
    const item = await clip('Clips/Arena/a.mp4');
    await video('Clips/Arena/Ace round.mp4');
    const renamed = await editor.rename('a', 'Clip', 'Ace round');
    expect(renamed).to.deep.include({ id: item.id, title: 'Ace round', fileName: 'Ace round (1)' });
    expect(renamed.filePath).to.equal(path.join(videos, 'Clips/Arena/Ace round (1).mp4').replaceAll('\\', '/'));
    expect(existsSync(item.filePath)).to.equal(false);
    const blank = await editor.rename('Ace round (1)', 'Clip', '  ');
    expect(blank.fileName).to.equal('2026-11-22_10-00-00');
    expect(blank.title).to.equal('  ');
    const same = await editor.rename('2026-11-22_10-00-00', 'Clip', '2026-11-22_10-00-00');
    expect(same.filePath).to.equal(blank.filePath);
    await commandRejection(editor.rename('nothing', 'Clip', 'x'), 'NotFound');
  });

  it('deletes a batch only when every item resolves, and never the file being recorded', async () => {
    const a = await clip('Clips/Arena/a.mp4');
    const b = await clip('Clips/Arena/b.mp4');
    await commandRejection(
      editor.deleteMany([
        { FileName: 'a', ContentType: 'Clip' },
        { FileName: 'zz', ContentType: 'Clip' },
      ]),
      'NotFound',
    );
    expect(existsSync(a.filePath)).to.equal(true);
    recording = new FakeRecording(b.filePath);
    await commandRejection(editor.delete('b', 'Clip'), 'NotAllowed');
    recording = undefined;
    await editor.deleteMany([
      { FileName: 'a', ContentType: 'Clip' },
      { FileName: 'b', ContentType: 'Clip' },
      { FileName: 'a', ContentType: 'Clip' },
    ]);
    expect(library.list()).to.deep.equal([]);
    expect(existsSync(path.join(videos, 'Clips', 'Arena'))).to.equal(false);
  });

  it('marks an item a favourite and not again, one change each, and refuses an item the library does not list', async () => {
    const item = await clip('Clips/Arena/a.mp4');
    let changes = 0;
    library.events.on('changed', () => void changes++);
    await editor.setFavorite(item.filePath, 'Clip', true);
    expect(library.get(item.id)).to.include({ favorite: true });
    await editor.setFavorite(item.filePath, 'Clip', true);
    await editor.setFavorite(item.filePath, 'Clip', false);
    expect(library.get(item.id)).to.not.have.property('favorite');
    expect(changes).to.equal(2);
    await commandRejection(editor.setFavorite(item.filePath, 'Session', true), 'NotFound');
  });

  it('adds and deletes bookmarks on library items, sorted by time, refusing times past the end', async () => {
    const item = await clip('Clips/Arena/a.mp4', 30);
    await editor.addBookmark({ filePath: item.filePath, contentType: 'Clip', id: 5, type: 'Kill', time: '00:00:20.500' });
    await editor.addBookmark({ filePath: item.filePath, contentType: 'Clip', id: 6, type: 'Manual', time: '00:00:03' });
    expect(library.get(item.id)!.bookmarks.map((bookmark) => [bookmark.id, bookmark.seconds])).to.deep.equal([
      [6, 3],
      [5, 20.5],
    ]);
    await commandRejection(
      editor.addBookmark({ filePath: item.filePath, contentType: 'Clip', id: 7, type: 'Kill', time: '00:05:00' }),
      'InvalidParameters',
    );
    await commandRejection(
      editor.addBookmark({ filePath: item.filePath, contentType: 'Session', id: 7, type: 'Kill', time: '00:00:01' }),
      'NotFound',
    );
    await editor.deleteBookmark(item.filePath, 'Clip', 5);
    expect(library.get(item.id)!.bookmarks.map((bookmark) => bookmark.id)).to.deep.equal([6]);
    await commandRejection(editor.deleteBookmark(item.filePath, 'Clip', 5), 'NotFound');
    expect(events.of('BookmarkCreated')).to.have.length(0);
  });

  it('keeps every bookmark of many added to one item at once, and a rename and a delete of one item at once never both act', async () => {
    const item = await clip('Clips/Arena/a.mp4', 30);
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        editor.addBookmark({
          filePath: item.filePath,
          contentType: 'Clip',
          id: index + 1,
          type: 'Kill',
          time: `00:00:${String(index + 10)}`,
        }),
      ),
    );
    expect(library.get(item.id)!.bookmarks.map((bookmark) => bookmark.id)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

    const [renamed, deleted] = await Promise.allSettled([editor.rename('a', 'Clip', 'Ace'), editor.delete('a', 'Clip')]);
    expect(renamed.status).to.equal('fulfilled');
    // The delete names the item by its old name, which the rename before it took away.
    expect(deleted.status === 'rejected' && (deleted.reason as { code?: string }).code).to.equal('NotFound');
    expect(library.get(item.id)).to.deep.include({ fileName: 'Ace' });
    expect(await readdir(path.join(videos, 'Clips/Arena'))).to.deep.equal(['Ace.mp4']);
  });

  it("puts a bookmark on the running recording's session file with BookmarkCreated, and takes it off again", async () => {
    const contentFilePath = path.join(videos, 'Full Sessions', 'Manual Recording', 'now.mp4');
    const running = new FakeRecording(contentFilePath);
    recording = running;
    await editor.addBookmark({ filePath: contentFilePath, contentType: 'Session', id: 9, type: 'Goal', time: '00:00:02' });
    expect(running.bookmarks).to.deep.equal([{ id: 9, type: 'Goal', subtype: null, time: '00:00:02', aiRating: null }]);
    expect(events.of('BookmarkCreated')).to.deep.equal([{}]);
    await editor.deleteBookmark(contentFilePath, 'Session', 9);
    expect(running.bookmarks).to.deep.equal([]);
    await commandRejection(editor.deleteBookmark(contentFilePath, 'Session', 9), 'NotFound');
  });

  it('refuses paths outside the content folder, also through a symbolic link, touching nothing', async () => {
    const item = await clip('Clips/Arena/a.mp4');
    const outside = path.join(folder, 'outside.mp4');
    await writeFile(outside, 'secret');
    const link = path.join(videos, 'Clips', 'Arena', 'link.mp4');
    await symlink(outside, link);
    for (const filePath of [outside, path.join(videos, '..', 'outside.mp4'), link, 'relative/a.mp4']) {
      await commandRejection(editor.addBookmark({ filePath, contentType: 'Clip', id: 1, type: 'Kill', time: '00:00:01' }));
      await commandRejection(editor.deleteBookmark(filePath, 'Clip', 1));
    }
    expect(library.get(item.id)!.bookmarks).to.deep.equal([]);
    expect((await readdir(path.join(videos, 'Clips', 'Arena'))).sort()).to.deep.equal(['a.mp4', 'link.mp4']);
  });
});
