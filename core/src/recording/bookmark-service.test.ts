import 'reflect-metadata';
import { expect } from 'chai';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Bookmark, type EventContent, type EventName } from '../protocol/index.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { BookmarkService, type BookmarkableRecording } from './bookmark-service.js';
import { RecorderService } from './recorder-service.js';
import { ContentLibrary } from '../library/content-library.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

class Events implements EventSink {
  readonly isConnected = true;
  readonly methods: EventName[] = [];
  send<E extends EventName>(method: E, _content: EventContent<E>): void {
    this.methods.push(method);
  }
}

describe('BookmarkService', () => {
  let app: TestApp;
  let library: ContentLibrary;
  let active: { current: BookmarkableRecording | undefined; bookmarks: Bookmark[] };
  let events: Events;
  let service: BookmarkService;
  const at = (iso: string) => new Date(iso);
  /** The running recording, keeping its bookmarks in `active.bookmarks`. */
  const recordingFrom = (startedAt: Date): BookmarkableRecording => ({
    startedAt,
    addBookmark: (bookmark) => active.bookmarks.push(bookmark) > 0,
  });

  beforeEach(async () => {
    events = new Events();
    active = { current: undefined, bookmarks: [] };
    app = await createTestApp({
      settings: {},
      overrides: [
        [EVENT_SINK, events],
        [RecorderService, active as unknown as RecorderService],
      ],
    });
    library = app.resolve(ContentLibrary);
    await library.load();
    service = app.resolve(BookmarkService);
  });
  afterEach(() => app.dispose());

  async function finishedSession(from: string, until: string) {
    const video = path.join(app.dataFolder, 'Videos', 'Full Sessions', 'Game', 'session.mp4');
    await mkdir(path.dirname(video), { recursive: true });
    await writeFile(video, 'video');
    return library.add({
      type: 'Session',
      filePath: video,
      game: 'Game',
      durationSeconds: 60,
      recordedFrom: at(from),
      recordedUntil: at(until),
    });
  }

  it('adds to the active recording with its offset from the start, and says so with BookmarkCreated', async () => {
    active.current = recordingFrom(at('2026-11-22T10:00:00Z'));
    expect(await service.add({ type: 'Kill', at: at('2026-11-22T10:01:05.250Z') }, 'test')).to.equal(true);
    expect(active.bookmarks).to.have.length(1);
    expect(active.bookmarks[0]).to.deep.include({ type: 'Kill', subtype: null, time: '00:01:05.2500000', aiRating: null });
    expect(active.bookmarks[0]!.id).to.be.within(1, 2 ** 31 - 1);
    expect(events.methods).to.include('BookmarkCreated');
  });

  it('attaches a past time to the finished recording that covered it, in its metadata', async () => {
    const session = await finishedSession('2026-11-22T09:00:00Z', '2026-11-22T09:01:00Z');
    active.current = recordingFrom(at('2026-11-22T10:00:00Z'));
    expect(await service.add({ type: 'Death', at: at('2026-11-22T09:00:42.5Z') }, 'test')).to.equal(true);
    expect(active.bookmarks).to.deep.equal([]);
    const sidecar = JSON.parse(await readFile(library.sidecarPath(session), 'utf8')) as { bookmarks: { type: string; seconds: number }[] };
    expect(sidecar.bookmarks.map((bookmark) => [bookmark.type, bookmark.seconds])).to.deep.equal([['Death', 42.5]]);
    expect(library.get(session.id)!.bookmarks).to.have.length(1);
  });

  it('drops a bookmark no recording covers', async () => {
    await finishedSession('2026-11-22T09:00:00Z', '2026-11-22T09:01:00Z');
    expect(await service.add({ type: 'Kill', at: at('2026-11-22T08:00:00Z') }, 'test')).to.equal(false);
    expect(await service.add({ type: 'Kill' }, 'test')).to.equal(false);
  });
});
