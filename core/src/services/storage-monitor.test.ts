import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ServiceOptions } from '../service-options.js';
import { Logger } from '../support/logger.js';
import { ContentLibrary } from './content-library.js';
import { Notifier } from './notifier.js';
import type { CurrentRecording, RecorderService } from './recorder-service.js';
import { SettingsStore } from './settings-store.js';
import { StateStore } from './state-store.js';
import {
  chooseDeletions, DEFAULT_STORAGE_MONITOR_OPTIONS, folderSizeBytes, GIB, StorageMonitor, storageMonitorOptions, toGb, type DeletionCandidate,
} from './storage-monitor.js';
import { RecordedEvents } from '../testing/fixtures.js';

/** The part of the recorder the monitor uses. */
class FakeRecorder {
  current: CurrentRecording | undefined;
  stops = 0;
  onStarted(): () => void { return () => undefined; }
  onStopped(): () => void { return () => undefined; }
  async stop() {
    this.stops++;
    this.current = undefined;
    return undefined;
  }
}

const HOUR = 3600_000;
const NOW = Date.parse('2026-11-22T12:00:00Z');
const candidate = (id: string, type: DeletionCandidate['type'], hoursOld: number, sizeGb = 1, modifiedHoursOld = hoursOld): DeletionCandidate => ({
  id, type, filePath: `/videos/${type}/${id}.mp4`, createdAt: NOW - hoursOld * HOUR, modifiedAt: NOW - modifiedHoursOld * HOUR, sizeBytes: sizeGb * GIB,
});
const ids = (chosen: DeletionCandidate[]) => chosen.map((item) => item.id);

describe('storage limit: what gets deleted', () => {
  const rules = { now: NOW, minAgeMs: HOUR };

  it('deletes the oldest Sessions and Buffers first, only as many as needed', () => {
    const items = [candidate('s-new', 'Session', 2), candidate('b-old', 'Buffer', 10), candidate('s-old', 'Session', 20), candidate('s-mid', 'Session', 5)];
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
    expect(ids(chooseDeletions(items, 50 * GIB, { ...rules, protectedPaths: ['/videos/Session/recording.mp4'] }))).to.deep.equal(['other']);
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
  let folder: string;
  let videos: string;
  let events: RecordedEvents;
  let settings: SettingsStore;
  let state: StateStore;
  let library: ContentLibrary;
  let recorder: FakeRecorder;
  let monitor: StorageMonitor | undefined;

  /** A sparse file: its logical size without using the disk. */
  const video = async (relative: string, bytes: number, hoursOld = 0) => {
    const file = path.join(videos, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '');
    await truncate(file, Math.round(bytes));
    const time = new Date(Date.now() - hoursOld * HOUR);
    await utimes(file, time, time);
    return file;
  };
  const newMonitor = (options: Partial<typeof DEFAULT_STORAGE_MONITOR_OPTIONS> = {}) => {
    const logger = new Logger([]);
    monitor = new StorageMonitor(settings, state, library, recorder as unknown as RecorderService, new Notifier(events, logger),
      { ...DEFAULT_STORAGE_MONITOR_OPTIONS, debounceMs: 20, ...options }, logger);
    return monitor;
  };

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-storage-'));
    videos = path.join(folder, 'Videos');
    events = new RecordedEvents();
    const logger = new Logger([]);
    settings = new SettingsStore(new ServiceOptions(folder, 0, undefined, [], videos), logger);
    await settings.load();
    settings.replace({ ...settings.current, storageLimit: 1 });
    state = new StateStore(events);
    library = new ContentLibrary(settings, state, logger);
    await library.load();
    recorder = new FakeRecorder();
  });
  afterEach(async () => {
    monitor?.stop();
    monitor = undefined;
    state.dispose();
    await settings.flush();
    await rm(folder, { recursive: true, force: true });
  });

  it('counts logical file sizes (st.size) of every file below the folder', async () => {
    await video('Full Sessions/Arena/a.mp4', 1.5 * GIB);
    await video('Clips/b.mp4', 1000);
    await writeFile(path.join(videos, 'notes.txt'), 'abc');
    expect(await folderSizeBytes(videos)).to.equal(1.5 * GIB + 1003);
    expect(await folderSizeBytes(path.join(folder, 'missing'))).to.equal(0);
  });

  it('at start: deletes the oldest old Session through the library until under the limit, keeps clips and young items, publishes the figures', async () => {
    const oldest = await library.add({ type: 'Session', filePath: await video('Full Sessions/Arena/old.mp4', 0.6 * GIB, 5), game: 'Arena', durationSeconds: 60, createdAt: new Date(Date.now() - 5 * HOUR) });
    const older = await library.add({ type: 'Buffer', filePath: await video('Replay Buffers/Arena/buffer.mp4', 0.3 * GIB, 3), game: 'Arena', durationSeconds: 30, createdAt: new Date(Date.now() - 3 * HOUR) });
    const young = await library.add({ type: 'Session', filePath: await video('Full Sessions/Arena/young.mp4', 0.3 * GIB, 0.1), game: 'Arena', durationSeconds: 60, createdAt: new Date(Date.now() - 0.1 * HOUR) });
    const clip = await library.add({ type: 'Clip', filePath: await video('Clips/Arena/clip.mp4', 0.4 * GIB, 50), game: 'Arena', durationSeconds: 10, createdAt: new Date(Date.now() - 50 * HOUR) });
    const outside = await library.add({ type: 'Session', filePath: await video('../Elsewhere/outside.mp4', 0.5 * GIB, 90), game: 'Arena', durationSeconds: 60, createdAt: new Date(Date.now() - 90 * HOUR) });
    // 1.6 GiB in the content folder against a limit of 1: deleting the oldest (0.6) is enough.
    await newMonitor().start();

    expect(existsSync(oldest.filePath)).to.equal(false);
    expect(existsSync(library.sidecarPath(oldest))).to.equal(false);
    expect(library.list().map((item) => item.id)).to.have.members([older.id, young.id, clip.id, outside.id]);
    expect(state.current.content.map((item) => item.id)).to.not.include(oldest.id);
    expect(state.current.currentFolderSizeGb).to.equal(1);
    expect(state.current.recordingDriveFreeGb).to.be.a('number').and.greaterThan(0);
    expect(state.current.recordingDriveUsedGb).to.be.a('number').and.greaterThan(0);
  });

  it('deletes nothing when only clips and young items are over the limit', async () => {
    const clip = await library.add({ type: 'Clip', filePath: await video('Clips/Arena/clip.mp4', 1.2 * GIB, 50), game: 'Arena', durationSeconds: 10, createdAt: new Date(Date.now() - 50 * HOUR) });
    const young = await library.add({ type: 'Session', filePath: await video('Full Sessions/Arena/young.mp4', 0.3 * GIB), game: 'Arena', durationSeconds: 60 });
    await newMonitor().start();
    expect(library.list().map((item) => item.id)).to.have.members([clip.id, young.id]);
    expect(state.current.currentFolderSizeGb).to.equal(1.5);
  });

  it('measures again shortly after the content changes', async () => {
    await newMonitor().start();
    expect(state.current.currentFolderSizeGb).to.equal(0);
    await library.add({ type: 'Clip', filePath: await video('Clips/Arena/clip.mp4', 0.25 * GIB), game: 'Arena', durationSeconds: 10 });
    for (let attempt = 0; attempt < 100 && state.current.currentFolderSizeGb === 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state.current.currentFolderSizeGb).to.equal(0.25);
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
