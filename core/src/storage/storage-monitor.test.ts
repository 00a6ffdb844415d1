import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readFile, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ContentLibrary } from '../library/content-library.js';
import { RecorderService, type CurrentRecording } from '../recording/recorder-service.js';
import { SettingsStore } from '../settings/settings-store.js';
import { StatePublisher } from '../state/state-publisher.js';
import {
  chooseDeletions,
  DEFAULT_STORAGE_MONITOR_OPTIONS,
  GIB,
  STORAGE_MONITOR_OPTIONS,
  StorageMonitor,
  storageMonitorOptions,
  toGb,
  type DeletionCandidate,
} from './storage-monitor.js';
import { StorageWarnings } from './storage-warnings.js';
import { allocatedFile, RecordedEvents } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { EVENT_SINK } from '../protocol/event-sink.js';

/** The part of the recorder the monitor uses. */
class FakeRecorder {
  current: CurrentRecording | undefined;
  stops = 0;
  onStarted(): () => void {
    return () => undefined;
  }
  onStopped(): () => void {
    return () => undefined;
  }
  async stop() {
    this.stops++;
    this.current = undefined;
    return undefined;
  }
}

const HOUR = 3600_000;
const NOW = Date.parse('2026-11-22T12:00:00Z');
const candidate = (
  id: string,
  type: DeletionCandidate['type'],
  hoursOld: number,
  sizeGb = 1,
  modifiedHoursOld = hoursOld,
): DeletionCandidate => ({
  id,
  type,
  filePath: `/videos/${type}/${id}.mp4`,
  createdAt: NOW - hoursOld * HOUR,
  modifiedAt: NOW - modifiedHoursOld * HOUR,
  sizeBytes: sizeGb * GIB,
});
const ids = (chosen: DeletionCandidate[]) => chosen.map((item) => item.id);

describe('storage limit: what gets deleted', () => {
  const rules = { now: NOW, minAgeMs: HOUR };

  it('deletes the oldest Sessions and Buffers first, only as many as needed', () => {
    const items = [
      candidate('s-new', 'Session', 2),
      candidate('b-old', 'Buffer', 10),
      candidate('s-old', 'Session', 20),
      candidate('s-mid', 'Session', 5),
    ];
    expect(ids(chooseDeletions(items, 0.5 * GIB, rules))).to.deep.equal(['s-old']);
    expect(ids(chooseDeletions(items, 1.5 * GIB, rules))).to.deep.equal(['s-old', 'b-old']);
    expect(ids(chooseDeletions(items, 2 * GIB, rules))).to.deep.equal(['s-old', 'b-old']);
    expect(ids(chooseDeletions(items, 100 * GIB, rules))).to.deep.equal(['s-old', 'b-old', 's-mid', 's-new']);
    expect(chooseDeletions(items, 0, rules)).to.deep.equal([]);
    expect(chooseDeletions(items, -5, rules)).to.deep.equal([]);
  });

  it('never deletes Clips or Highlights, however old', () => {
    const items = [candidate('clip', 'Clip', 100), candidate('highlight', 'Highlight', 200), candidate('session', 'Session', 3)];
    expect(ids(chooseDeletions(items, 50 * GIB, rules))).to.deep.equal(['session']);
  });

  it('keeps items younger than an hour, by creation and by last write', () => {
    const items = [
      candidate('fresh', 'Session', 0.5),
      candidate('written-recently', 'Session', 30, 1, 0.2),
      candidate('exactly-an-hour', 'Buffer', 1),
      candidate('old', 'Buffer', 1.01),
    ];
    expect(ids(chooseDeletions(items, 50 * GIB, rules))).to.deep.equal(['old', 'exactly-an-hour']);
  });

  it('keeps the active recording', () => {
    const items = [candidate('recording', 'Session', 9), candidate('other', 'Session', 8)];
    expect(
      ids(chooseDeletions(items, 50 * GIB, { ...rules, isProtected: (file) => file === '/videos/Session/recording.mp4' })),
    ).to.deep.equal(['other']);
  });

  it('reads KEYFRAME_MIN_FREE_BYTES, ignoring values that are not a number', () => {
    expect(storageMonitorOptions({}).minFreeBytes).to.equal(GIB);
    expect(storageMonitorOptions({ KEYFRAME_MIN_FREE_BYTES: '5000' }).minFreeBytes).to.equal(5000);
    expect(storageMonitorOptions({ KEYFRAME_MIN_FREE_BYTES: 'lots' }).minFreeBytes).to.equal(GIB);
    expect(toGb(1.5 * GIB)).to.equal(1.5);
    expect(toGb(123_456_789)).to.equal(0.11);
  });
});

describe('StorageMonitor', function () {
  this.timeout(10000);
  let app: TestApp;
  let folder: string;
  let videos: string;
  let events: RecordedEvents;
  let settings: SettingsStore;
  let state: StatePublisher;
  let library: ContentLibrary;
  let recorder: FakeRecorder;
  let warnings: StorageWarnings;
  let monitor: StorageMonitor | undefined;

  /** A file that takes `bytes` on the disk (allocated, not written), last written `hoursOld` ago. */
  const video = (relative: string, bytes: number, hoursOld = 0) =>
    allocatedFile(path.join(videos, relative), bytes, new Date(Date.now() - hoursOld * HOUR));
  /** A monitor as the service starts it (again, after a restart): its consent read from the data folder. */
  const newMonitor = (options: Partial<typeof DEFAULT_STORAGE_MONITOR_OPTIONS> = {}) => {
    monitor = app.fresh(StorageMonitor, [[STORAGE_MONITOR_OPTIONS, { ...DEFAULT_STORAGE_MONITOR_OPTIONS, debounceMs: 20, ...options }]]);
    state.follow({ storage: monitor });
    return monitor;
  };
  const session = async (name: string, sizeGb: number, hoursOld: number) =>
    library.add({
      type: 'Session',
      filePath: await video(`Full Sessions/Arena/${name}.mp4`, sizeGb * GIB, hoursOld),
      game: 'Arena',
      durationSeconds: 60,
      createdAt: new Date(Date.now() - hoursOld * HOUR),
    });
  const answer = (confirmed: boolean) => {
    const warning = events.of('StorageWarning').at(-1)!;
    return warnings.answer({ warningId: warning.warningId, confirmed, action: warning.action });
  };

  beforeEach(async () => {
    events = new RecordedEvents();
    recorder = new FakeRecorder();
    app = await createTestApp({
      settings: { storageLimit: 1 },
      overrides: [
        [EVENT_SINK, events],
        [RecorderService, recorder as unknown as RecorderService],
      ],
    });
    folder = app.dataFolder;
    settings = app.resolve(SettingsStore);
    videos = settings.current.contentFolder;
    state = app.resolve(StatePublisher);
    warnings = app.resolve(StorageWarnings);
    library = app.resolve(ContentLibrary);
    await library.load();
  });
  afterEach(async () => {
    monitor?.stop();
    monitor = undefined;
    await app.dispose();
  });

  it("counts only the library's videos in the content folder, by the room they take on the disk", async () => {
    await session('counted', 0.25, 0);
    const sparse = path.join(videos, 'Full Sessions', 'Arena', 'sparse.mp4');
    await writeFile(sparse, '');
    await truncate(sparse, 200 * GIB); // the library's, but it takes no room
    await library.add({ type: 'Session', filePath: sparse, game: 'Arena', durationSeconds: 60 });
    await video('Clips/not-keyframes.mp4', 0.5 * GIB); // not the library's
    const outside = await allocatedFile(path.join(folder, 'Elsewhere', 'outside.mp4'), 0.5 * GIB);
    await library.add({ type: 'Clip', filePath: outside, game: 'Arena', durationSeconds: 10 }); // the library's, outside the folder
    await symlink(outside, path.join(videos, 'Clips', 'link.mp4'));
    await library.add({ type: 'Clip', filePath: path.join(videos, 'Clips', 'link.mp4'), game: 'Arena', durationSeconds: 10 });
    await symlink(path.join(folder, 'Elsewhere'), path.join(videos, 'Linked Folder'));
    await library.add({ type: 'Clip', filePath: path.join(videos, 'Linked Folder', 'outside.mp4'), game: 'Arena', durationSeconds: 10 });
    // The file system may give the sparse file a block or two of its own (an extent tree): room it really takes.
    expect(await newMonitor().measureContentFolder()).to.be.within(0.25 * GIB, 0.25 * GIB + 64 * 1024);
  });

  it('at start: asks first; once allowed, deletes the oldest old Session through the library until under the limit, keeps clips and young items', async () => {
    const oldest = await session('old', 0.55, 5);
    const older = await library.add({
      type: 'Buffer',
      filePath: await video('Replay Buffers/Arena/buffer.mp4', 0.25 * GIB, 3),
      game: 'Arena',
      durationSeconds: 30,
      createdAt: new Date(Date.now() - 3 * HOUR),
    });
    const young = await session('young', 0.2, 0.1);
    const clip = await library.add({
      type: 'Clip',
      filePath: await video('Clips/Arena/clip.mp4', 0.5 * GIB, 50),
      game: 'Arena',
      durationSeconds: 10,
      createdAt: new Date(Date.now() - 50 * HOUR),
    });
    // 1.5 GiB in the content folder against a limit of 1: deleting the oldest (0.55) is enough.
    await newMonitor().start();
    const all = [oldest.id, older.id, young.id, clip.id];
    expect(library.list().map((item) => item.id)).to.have.members(all);
    expect(events.of('StorageWarning')).to.have.length(1);
    expect(events.of('StorageWarning')[0]).to.deep.include({
      action: 'storageLimit',
      confirmText: 'Delete Old Recordings',
      cancelText: 'Keep Everything',
    });
    expect(events.of('StorageWarning')[0]!.description).to.include(videos).and.include('1 GB').and.include('1.5 GB');
    expect(state.current.currentFolderSizeGb).to.equal(1.5);
    await monitor!.refresh();
    expect(events.of('StorageWarning'), 'asked once, not at every check').to.have.length(1);

    await answer(true);
    expect(existsSync(oldest.filePath)).to.equal(false);
    expect(existsSync(library.sidecarPath(oldest))).to.equal(false);
    expect(library.list().map((item) => item.id)).to.have.members([older.id, young.id, clip.id]);
    expect(state.current.content.map((item) => item.id)).to.not.include(oldest.id);
    expect(state.current.currentFolderSizeGb).to.equal(0.95);
    expect(state.current.recordingDriveFreeGb).to.be.a('number').and.greaterThan(0);
    expect(state.current.recordingDriveUsedGb).to.be.a('number').and.greaterThan(0);
    expect(JSON.parse(await readFile(path.join(folder, 'storage-limit-consent.json'), 'utf8'))).to.deep.include({
      contentFolder: videos,
      storageLimitGb: 1,
      automaticDeletion: 'allowed',
    });
  });

  it('keeps everything when declined, without asking again; a new limit asks again', async () => {
    const old = await session('old', 1.2, 5);
    await newMonitor().start();
    await answer(false);
    await monitor!.refresh();
    expect(existsSync(old.filePath)).to.equal(true);
    expect(events.of('StorageWarning')).to.have.length(1);
    monitor!.stop();
    await newMonitor().start(); // after a restart too
    expect(events.of('StorageWarning')).to.have.length(1);
    settings.replace({ ...settings.current, storageLimit: 2 });
    await session('another', 1.2, 4);
    await monitor!.refresh();
    expect(events.of('StorageWarning')).to.have.length(2);
    expect(events.of('StorageWarning')[1]!.description).to.include('2 GB');
    expect(library.list()).to.have.length(2);
  });

  it('withdraws an unanswered question once it no longer applies (the library is under a new limit)', async () => {
    await session('old', 1.2, 5);
    await newMonitor().start();
    const question = events.of('StorageWarning')[0]!;
    expect(warnings.isPending(question.warningId)).to.equal(true);
    settings.replace({ ...settings.current, storageLimit: 2 });
    await monitor!.refresh();
    expect(warnings.isPending(question.warningId)).to.equal(false);
    expect(events.of('StorageWarning')).to.have.length(1);
  });

  it('deletes nothing and warns once when deleting every old Session would not reach the limit', async () => {
    const clip = await library.add({
      type: 'Clip',
      filePath: await video('Clips/Arena/clip.mp4', 1.2 * GIB, 50),
      game: 'Arena',
      durationSeconds: 10,
      createdAt: new Date(Date.now() - 50 * HOUR),
    });
    const young = await session('young', 0.3, 0);
    const old = await session('old', 0.1, 5);
    await newMonitor().start();
    await monitor!.refresh();
    expect(library.list().map((item) => item.id)).to.have.members([clip.id, young.id, old.id]);
    expect(state.current.currentFolderSizeGb).to.equal(1.6);
    expect(events.of('StorageWarning')).to.deep.equal([]);
    expect(events.of('ShowModal')).to.have.length(1);
    expect(events.of('ShowModal')[0]).to.deep.include({ title: 'Over your storage limit', type: 'warning' });
  });

  it('measures again shortly after the content changes', async () => {
    await newMonitor().start();
    expect(state.current.currentFolderSizeGb).to.equal(0);
    await library.add({ type: 'Clip', filePath: await video('Clips/Arena/clip.mp4', 0.25 * GIB), game: 'Arena', durationSeconds: 10 });
    for (let attempt = 0; attempt < 100 && state.current.currentFolderSizeGb === 0; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state.current.currentFolderSizeGb).to.equal(0.25);
  });

  it('measures again shortly after a change of the storage limit or a folder, not after another setting', async () => {
    await newMonitor().start();
    let measured = 0;
    monitor!.events.on('measured', () => measured++);
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    settings.replace({ ...settings.current, frameRate: 30 });
    await wait(100); // five times the debounce
    expect(measured).to.equal(0);
    for (const change of [{ storageLimit: 2 }, { cacheFolder: folder }, { contentFolder: folder }]) {
      settings.replace({ ...settings.current, ...change });
      for (let attempt = 0; attempt < 100 && measured === 0; attempt++) await wait(10);
      expect(measured, Object.keys(change)[0]).to.equal(1);
      measured = 0;
    }
  });

  it('stops a running recording when the cache drive has less free space than the minimum', async () => {
    const watcher = newMonitor({ minFreeBytes: Number.MAX_SAFE_INTEGER });
    await watcher.checkFreeSpace();
    expect(recorder.stops, 'no recording, nothing to stop').to.equal(0);
    recorder.current = { startedAt: new Date(), game: 'Arena', contentFilePath: path.join(videos, 'x.mp4') } as CurrentRecording;
    await watcher.checkFreeSpace();
    expect(recorder.stops).to.equal(1);
    const modal = events.of('ShowModal')[0]!;
    expect(modal).to.deep.include({ title: 'Recording stopped: the disk is almost full', type: 'error' });
    expect(modal.description).to.include(settings.current.cacheFolder);
  });

  it('lets a recording run while there is space', async () => {
    const watcher = newMonitor({ minFreeBytes: 1 });
    recorder.current = { startedAt: new Date(), game: 'Arena', contentFilePath: path.join(videos, 'x.mp4') } as CurrentRecording;
    await watcher.checkFreeSpace();
    expect(recorder.stops).to.equal(0);
    expect(events.of('ShowModal')).to.deep.equal([]);
  });
});
