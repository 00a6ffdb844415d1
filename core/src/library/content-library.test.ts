import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RecordedEvents } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { EVENT_SINK } from '../protocol/event-sink.js';
import { ContentLibrary, sanitizeFolderName } from './content-library.js';
import { StatePublisher } from '../state/state-publisher.js';

describe('ContentLibrary', () => {
  let folder: string;
  let app: TestApp;
  let state: StatePublisher;
  let library: ContentLibrary;

  const video = async (relative: string, bytes = 2048) => {
    const file = path.join(folder, 'Videos', relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, Buffer.alloc(bytes));
    return file;
  };
  /** The library as a restarted service loads it, shown in the same State. */
  const freshLibrary = async () => {
    const next = app.fresh(ContentLibrary);
    state.follow({ library: next });
    await next.load();
    await next.videosChecked();
    return next;
  };
  const session = (filePath: string, from: string, seconds: number, createdAt = new Date(Date.parse(from) + seconds * 1000)) => ({
    type: 'Session' as const,
    filePath,
    game: 'Arena',
    durationSeconds: seconds,
    createdAt,
    recordedFrom: new Date(from),
    recordedUntil: new Date(Date.parse(from) + seconds * 1000),
  });

  beforeEach(async () => {
    app = await createTestApp({ settings: {} });
    folder = app.dataFolder;
    state = app.resolve(StatePublisher);
    library = app.resolve(ContentLibrary); // State follows it from its creation, as in the app
    await library.load();
  });
  afterEach(() => app.dispose());

  it('makes game names safe folder names', () => {
    expect(sanitizeFolderName('Half-Life: Alyx')).to.equal('Half-Life_ Alyx');
    expect(sanitizeFolderName('a<>b')).to.equal('a_b');
    expect(sanitizeFolderName('  ..Game.. ')).to.equal('Game');
    expect(sanitizeFolderName('???')).to.equal('_');
    expect(sanitizeFolderName(' . ')).to.equal('Unknown');
    expect(sanitizeFolderName('CON')).to.equal('CON_');
    expect(library.contentPath('Clip', 'A/B', 'x.mp4')).to.equal(path.join(folder, 'Videos', 'Clips', 'A_B', 'x.mp4'));
  });

  it('adds an item: sidecar under its type folder, 32-hex id, sizes, durations, recorded range, State newest first', async () => {
    const older = await library.add(
      session(await video('Full Sessions/Arena/2026-11-22_10-00-00.mp4', 5 * 1024 * 1024), '2026-11-22T10:00:00.000Z', 60),
    );
    const newer = await library.add({
      type: 'Clip',
      filePath: await video('Clips/Arena/clip.mp4'),
      game: 'Arena',
      durationSeconds: 12.5,
      createdAt: new Date('2026-11-22T11:00:00Z'),
    });
    expect(older.id).to.match(/^[0-9a-f]{32}$/);
    expect(older).to.deep.include({
      type: 'Session',
      title: '',
      fileName: '2026-11-22_10-00-00',
      sizeBytes: 5 * 1024 * 1024,
      durationSeconds: 60,
      recordedFrom: new Date('2026-11-22T10:00:00.000Z'),
      recordedUntil: new Date('2026-11-22T10:01:00.000Z'),
      isImported: false,
      compressed: false,
    });
    expect(older).to.not.have.any.keys('uploadId', 'gameDatabaseId', 'audioTrackNames', 'gameExePath');
    expect(newer.durationSeconds).to.equal(12.5);
    const sidecar = JSON.parse(
      await readFile(path.join(folder, 'cache', 'metadata', 'Full Sessions', `${older.id}.json`), 'utf8'),
    ) as unknown;
    expect(sidecar).to.deep.equal({
      version: 2,
      ...older,
      createdAt: older.createdAt.toISOString(),
      recordedFrom: '2026-11-22T10:00:00.000Z',
      recordedUntil: '2026-11-22T10:01:00.000Z',
    });
    expect(state.current.content[1]).to.deep.include({ fileSize: '5.00 MB', fileSizeKb: 5120, duration: '00:01:00' });
    expect(await readdir(path.join(folder, 'cache', 'metadata', 'Clips'))).to.deep.equal([`${newer.id}.json`]);
    expect(state.current.content.map((item) => item.id)).to.deep.equal([newer.id, older.id]);
    expect(state.current.content[1]).to.not.have.property('recordedFrom');
  });

  it('gives a video that is already listed its old id back', async () => {
    const file = await video('Full Sessions/Arena/a.mp4');
    const first = await library.add(session(file, '2026-11-22T10:00:00Z', 10));
    const again = await library.add(session(file, '2026-11-22T10:00:00Z', 11));
    expect(again.id).to.equal(first.id);
    expect(library.list()).to.have.length(1);
  });

  it('keeps two videos whose names differ only in case as two items where the file system tells them apart', async function () {
    if (process.platform === 'win32' || process.platform === 'darwin') this.skip(); // one file there, not two
    const upper = await video('Full Sessions/Arena/Match.mp4');
    const lower = await video('Full Sessions/Arena/match.mp4');
    const first = await library.add(session(upper, '2026-11-22T10:00:00Z', 10));
    const second = await library.add(session(lower, '2026-11-22T11:00:00Z', 10));
    expect(second.id).to.not.equal(first.id);
    expect(
      library
        .list()
        .map((item) => path.basename(item.filePath))
        .sort(),
    ).to.deep.equal(['Match.mp4', 'match.mp4']);
  });

  it('updates an item atomically and keeps the change across a reload', async () => {
    const item = await library.add(session(await video('Full Sessions/Arena/a.mp4'), '2026-11-22T10:00:00Z', 10));
    const bookmark = { id: 7, type: 'Kill' as const, seconds: 3 };
    await Promise.all([library.update(item.id, { title: 'first' }), library.update(item.id, { bookmarks: [bookmark] })]);
    const renamed = await video('Full Sessions/Arena/renamed.mp4', 4096);
    await library.update(item.id, { filePath: renamed });
    const reloaded = await freshLibrary();
    expect(reloaded.get(item.id)).to.deep.include({ title: 'first', bookmarks: [bookmark], fileName: 'renamed', sizeBytes: 4096 });
    expect(await readdir(path.join(folder, 'cache', 'metadata', 'Full Sessions'))).to.deep.equal([`${item.id}.json`]);
    expect(state.current.content[0]!.title).to.equal('first');
  });

  it('keeps the list newest first through changes that keep or move the date, as a reload lists it', async () => {
    const added = new Map<number, string>();
    for (const hour of [12, 10, 14, 11, 13]) {
      const from = `2026-11-22T${hour}:00:00Z`;
      added.set(hour, (await library.add(session(await video(`s/${hour}.mp4`), from, 60))).id);
    }
    const idsAt = (...hours: number[]) => hours.map((hour) => added.get(hour));
    const handedOut = library.list();
    const handedOutIds = handedOut.map((item) => item.id);
    expect(handedOutIds).to.deep.equal(idsAt(14, 13, 12, 11, 10));
    await library.update(added.get(12)!, { title: 'same date, same place' });
    await library.update(added.get(11)!, { createdAt: new Date('2026-11-22T15:00:00Z') });
    await library.update(added.get(14)!, { createdAt: new Date('2026-11-22T09:00:00Z') });
    await library.remove(added.get(13)!);
    const expected = idsAt(11, 12, 10, 14);
    expect(library.list().map((item) => item.id)).to.deep.equal(expected);
    expect(handedOut.map((item) => item.id)).to.deep.equal(handedOutIds); // a list once returned does not change
    expect(state.current.content.map((item) => item.id)).to.deep.equal(expected);
    expect(state.current.content[1]!.title).to.equal('same date, same place');
    expect((await freshLibrary()).list().map((item) => item.id)).to.deep.equal(expected);
  });

  it('finds the session that covered a moment', async () => {
    const morning = await library.add(session(await video('s/1.mp4'), '2026-11-22T10:00:00Z', 60));
    const noon = await library.add(session(await video('s/2.mp4'), '2026-11-22T12:00:00Z', 60));
    expect(library.findCovering(new Date('2026-11-22T10:00:30Z'))?.id).to.equal(morning.id);
    expect(library.findCovering(new Date('2026-11-22T12:01:00Z'))?.id).to.equal(noon.id);
    expect(library.findCovering(new Date('2026-11-22T11:00:00Z'))).to.equal(undefined);
  });

  it('at load, skips broken sidecars and lists only items whose video still exists', async () => {
    const kept = await library.add(session(await video('s/kept.mp4'), '2026-11-22T10:00:00Z', 60));
    const gone = await library.add(session(await video('s/gone.mp4'), '2026-11-22T11:00:00Z', 60));
    await rm(gone.filePath);
    const sessions = path.join(folder, 'cache', 'metadata', 'Full Sessions');
    await writeFile(path.join(sessions, `${'a'.repeat(32)}.json`), '{"id": "half a file');
    await writeFile(path.join(sessions, `${'b'.repeat(32)}.json`), JSON.stringify({ id: 'b'.repeat(32), type: 'Session' }));
    await writeFile(path.join(sessions, `${kept.id}.json.tmp-1-1`), '{');
    const reloaded = await freshLibrary();
    expect(reloaded.list().map((item) => item.id)).to.deep.equal([kept.id]);
    expect(state.current.content.map((item) => item.id)).to.deep.equal([kept.id]);
    expect((await readdir(sessions)).sort()).to.deep.equal(
      [`${'a'.repeat(32)}.json`, `${'b'.repeat(32)}.json`, `${gone.id}.json`, `${kept.id}.json`].sort(),
    );
  });

  it('removes a batch of items with their files and empty game folders, publishing State once', async () => {
    const events = new RecordedEvents();
    const counted = app.fresh(StatePublisher, [[EVENT_SINK, events]]);
    const batchLibrary = app.fresh(ContentLibrary);
    counted.follow({ library: batchLibrary });
    await batchLibrary.load();
    const first = await batchLibrary.add(session(await video('Full Sessions/Arena/1.mp4'), '2026-11-22T10:00:00Z', 60));
    const second = await batchLibrary.add({ type: 'Clip', filePath: await video('Clips/Solo/c.mp4'), game: 'Solo', durationSeconds: 5 });
    const kept = await batchLibrary.add(session(await video('Full Sessions/Arena/2.mp4'), '2026-11-22T11:00:00Z', 60));
    const thumbnail = path.join(folder, 'cache', 'thumbnails', 'Clips', `${second.id}.jpeg`);
    const waveform = path.join(folder, 'cache', 'waveforms', 'Clips', `${second.id}.peaks.json`);
    await mkdir(path.dirname(thumbnail), { recursive: true });
    await mkdir(path.dirname(waveform), { recursive: true });
    await writeFile(thumbnail, 'jpeg');
    await writeFile(waveform, '{}');
    await new Promise((resolve) => setTimeout(resolve, 120));
    const before = events.of('State').length;
    await batchLibrary.removeMany([first.id, second.id]);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(events.of('State').length - before).to.equal(1);
    expect(
      events
        .of('State')
        .at(-1)!
        .content.map((item) => item.id),
    ).to.deep.equal([kept.id]);
    expect(existsSync(first.filePath) || existsSync(second.filePath) || existsSync(thumbnail) || existsSync(waveform)).to.equal(false);
    expect(existsSync(path.join(folder, 'Videos', 'Clips', 'Solo'))).to.equal(false);
    expect(existsSync(path.join(folder, 'Videos', 'Full Sessions', 'Arena'))).to.equal(true);
    expect(await readdir(path.join(folder, 'cache', 'metadata', 'Clips'))).to.deep.equal([]);
    counted.dispose();
  });
});
