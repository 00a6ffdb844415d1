import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FfmpegToolbox } from '../../media/ffmpeg-toolbox.js';
import { thumbnailPath } from '../../media/thumbnail.js';
import { PickerUnavailableError, type PickOptions } from '../../platform/native-picker.js';
import {
  allocatedFile,
  commandRejection,
  createMediaWorld,
  folderSnapshot,
  generateVideo,
  type MediaWorld,
  RecordedEvents,
} from '../../testing/fixtures.js';
import type { EventContent, EventName } from '../../protocol/index.js';
import { ContentLibrary } from '../../library/content-library.js';
import { IMPORTED_GAME, ImportService, MULTI_FILE_PICKER, type MultiFilePicker } from './import-service.js';
import { SettingsStore } from '../../settings/settings-store.js';
import { GIB } from '../../storage/storage-monitor.js';
import { StorageWarnings } from '../../storage/storage-warnings.js';

async function filesUnder(folder: string): Promise<string[]> {
  if (!existsSync(folder)) return [];
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('ImportService', function () {
  this.timeout(120000);
  let world: MediaWorld;
  let folder: string;
  let content: string;
  let sources: string;
  let events: RecordedEvents;
  let settings: SettingsStore;
  let library: ContentLibrary;
  let toolbox: FfmpegToolbox;
  let warnings: StorageWarnings;
  let picked: PickOptions[];

  /** An import service over the world's, whose picker answers with `pick` and keeps what it was asked. */
  const build = (pick: MultiFilePicker = async () => []) => {
    const recordingPicker: MultiFilePicker = (options) => {
      picked.push(options);
      return pick(options);
    };
    return world.app.fresh(ImportService, [[MULTI_FILE_PICKER, recordingPicker]]);
  };

  /** Two videos (the second with two named tracks) and a text file named .mp4, with known modification times. */
  const threeFiles = async () => {
    const first = path.join(sources, 'match one.mp4');
    const second = path.join(sources, 'match two.mp4');
    const broken = path.join(sources, 'notes.mp4');
    await generateVideo(toolbox.requireFfmpeg('The test').ffmpeg.path, first, { seconds: 2, width: 320, height: 180 });
    await generateVideo(toolbox.requireFfmpeg('The test').ffmpeg.path, second, { seconds: 3, width: 320, height: 180, tones: [440, 660] });
    await writeFile(broken, 'these are my notes, not a video\n');
    await utimes(first, new Date('2026-03-01T10:00:00Z'), new Date('2026-03-01T10:00:00Z'));
    await utimes(second, new Date('2026-03-02T12:30:00Z'), new Date('2026-03-02T12:30:00Z'));
    return [first, broken, second];
  };

  beforeEach(async () => {
    world = await createMediaWorld('keyframe-import-');
    ({ folder, events, settings, library, toolbox } = world);
    content = settings.current.contentFolder;
    sources = path.join(folder, 'Downloads');
    await mkdir(sources, { recursive: true });
    picked = [];
    warnings = world.app.resolve(StorageWarnings);
  });
  afterEach(() => world.dispose());

  it('imports 3 files with one broken: two items, one per-file error, sources copied untouched', async () => {
    const files = await threeFiles();
    const originals = await Promise.all(files.map((file) => readFile(file)));

    const started = await build().importFiles({ sectionId: 'sessions', FilePaths: files });

    expect(started.status).to.equal('imported');
    if (started.status !== 'imported') return;
    const { summary } = started;
    expect(summary.imported).to.have.length(2);
    expect(summary.failed.map((failure) => failure.file)).to.deep.equal([files[1]]);
    expect(summary.failed[0]!.message).to.match(/^Could not import notes\.mp4: it is not a video file/);

    const items = library.list();
    expect(items.map((item) => item.fileName).sort()).to.deep.equal(['match one', 'match two']);
    for (const item of items) {
      expect(item).to.deep.include({ type: 'Session', game: IMPORTED_GAME, isImported: true, compressed: false, title: '' });
      expect(path.dirname(item.filePath)).to.equal(path.join(content, 'Full Sessions', 'Imported'));
      expect(existsSync(thumbnailPath(settings.current.cacheFolder, 'Full Sessions', item.id))).to.equal(true);
    }
    const one = items.find((item) => item.fileName === 'match one')!;
    const two = items.find((item) => item.fileName === 'match two')!;
    expect(one.createdAt.getTime()).to.equal(Date.parse('2026-03-01T10:00:00Z'));
    expect(two.createdAt.getTime()).to.equal(Date.parse('2026-03-02T12:30:00Z'));
    expect(one.audioTrackNames).to.equal(undefined);
    expect(two.audioTrackNames).to.deep.equal(['Track 1', 'Track 2']);
    expect(two.durationSeconds).to.be.within(2, 4);
    expect((await readFile(two.filePath)).equals(originals[2]!)).to.equal(true);

    // Copied, never moved: every source as it was, and no file left half-written.
    for (const [index, file] of files.entries()) expect((await readFile(file)).equals(originals[index]!)).to.equal(true);
    expect(await filesUnder(content)).to.deep.equal(['Full Sessions/Imported/match one.mp4', 'Full Sessions/Imported/match two.mp4']);

    const progress = events.of('ImportProgress');
    expect(new Set(progress.map((event) => event.id))).to.deep.equal(new Set([summary.id]));
    expect(progress.every((event) => event.totalFiles === 3)).to.equal(true);
    const indexes = progress.map((event) => event.currentFileIndex);
    expect(indexes).to.deep.equal([...indexes].sort((a, b) => a - b));
    expect(indexes[0]).to.equal(0);
    expect(progress.filter((event) => event.status === 'error')).to.deep.equal([
      {
        id: summary.id,
        totalFiles: 3,
        fileName: 'notes',
        progress: -1,
        status: 'error',
        currentFileIndex: 1,
        message: summary.failed[0]!.message,
      },
    ]);
    for (const index of [0, 2]) {
      const perFile = progress
        .filter((event) => event.currentFileIndex === index && event.status === 'importing')
        .map((event) => event.progress);
      expect(perFile[0]).to.equal(0);
      expect(perFile.at(-1)).to.equal(100);
      expect(perFile).to.deep.equal([...perFile].sort((a, b) => a - b));
      const steps = progress
        .filter((event) => event.currentFileIndex === index && event.status === 'importing')
        .map((event) => event.message);
      expect(steps[0]).to.equal('Reading the video');
      expect(steps).to.include('Making the thumbnail and waveform');
    }
    expect(progress.at(-1)).to.deep.equal({
      id: summary.id,
      totalFiles: 3,
      fileName: 'Finished',
      progress: 100,
      status: 'done',
      currentFileIndex: 2,
      message: 'Completed: 2 successful, 1 failed',
    });
  });

  it('imports into Replay Buffers, and a second file of the same name gets a free name', async () => {
    const file = path.join(sources, 'clip.mp4');
    await generateVideo(toolbox.requireFfmpeg('The test').ffmpeg.path, file, { seconds: 1, width: 320, height: 180 });
    const service = build();
    await service.importFiles({ sectionId: 'replayBuffer', FilePaths: [file] });
    await service.importFiles({ sectionId: 'replayBuffer', FilePaths: [file] });
    expect(
      library
        .list()
        .map((item) => [item.type, item.fileName])
        .sort(),
    ).to.deep.equal([
      ['Buffer', 'clip'],
      ['Buffer', 'clip (1)'],
    ]);
  });

  it('CancelImport while a file is copied: that copy removed, the file imported before kept, the source in the library folder untouched', async () => {
    const ffmpeg = toolbox.requireFfmpeg('The test').ffmpeg.path;
    const first = path.join(sources, 'first.mp4');
    await generateVideo(ffmpeg, first, { seconds: 1, width: 320, height: 180 });
    // The second is in the library's folder already, under the very name its copy would take.
    const inside = library.contentPath('Session', IMPORTED_GAME, 'inside.mp4');
    await mkdir(path.dirname(inside), { recursive: true });
    await generateVideo(ffmpeg, inside, { seconds: 3, width: 1280, height: 720 });
    const before = await folderSnapshot(content);
    const service = build();
    // A frontend that cancels as soon as the second file's copy is under way.
    let cancelling: Promise<void> | undefined;
    const record = events.send.bind(events);
    events.send = <E extends EventName>(method: E, content: EventContent<E>): void => {
      record(method, content);
      if (method !== 'ImportProgress' || cancelling) return;
      const event = content as EventContent<'ImportProgress'>;
      if (event.currentFileIndex === 1 && event.message === 'Copying') cancelling = service.cancel(event.id);
    };

    await service.importFiles({ sectionId: 'sessions', FilePaths: [first, inside] });
    await cancelling;

    expect(library.list().map((item) => item.fileName)).to.deep.equal(['first']);
    const after = await folderSnapshot(content);
    expect(after.filter((line) => !line.includes('first.mp4'))).to.deep.equal(before);
    expect(after.filter((line) => line.includes('first.mp4'))).to.have.length(1);
    const progress = events.of('ImportProgress');
    expect(progress.find((event) => event.progress === 100 && event.currentFileIndex === 0)!.output).to.deep.include({ fileName: 'first' });
    expect(progress.at(-1)).to.deep.include({
      fileName: 'Cancelled',
      progress: -1,
      status: 'error',
      currentFileIndex: 1,
      message: 'Import cancelled: 1 of 2 files were imported before',
      cancelled: true,
    });
    await commandRejection(service.cancel(progress[0]!.id), 'NotFound');
  });

  it('reports an import where every file fails as an error', async () => {
    const started = await build().importFiles({ sectionId: 'sessions', FilePaths: [path.join(sources, 'gone.mp4')] });
    expect(started.status).to.equal('imported');
    expect(events.of('ImportProgress').at(-1)).to.deep.include({
      fileName: 'Failed',
      progress: 100,
      status: 'error',
      message: 'Completed: 0 successful, 1 failed',
    });
    expect(library.list()).to.deep.equal([]);
  });

  it('holds an import over the storage limit until StorageWarningConfirm: cancel imports nothing, confirm imports', async () => {
    settings.replace({ ...settings.current, storageLimit: 1 });
    // The limit counts the library's own videos by the room they take on the disk.
    const filler = await allocatedFile(path.join(content, 'Clips', 'big.mp4'), GIB);
    const fillerItem = await library.add({ type: 'Clip', filePath: filler, game: 'Arena', durationSeconds: 10 });
    const files = await threeFiles();
    const service = build();

    const held = await service.importFiles({ sectionId: 'sessions', FilePaths: files });
    expect(held.status).to.equal('waiting');
    if (held.status !== 'waiting') return;
    const [warning] = events.of('StorageWarning');
    expect(warning).to.deep.include({ warningId: held.warningId, action: 'import', actionData: { warningId: held.warningId } });
    expect(events.of('ImportProgress')).to.deep.equal([]);
    await warnings.answer({ warningId: held.warningId, confirmed: false, action: 'import' });
    expect(events.of('ImportProgress')).to.deep.equal([]);
    expect(library.list()).to.deep.equal([fillerItem]);
    expect(await filesUnder(path.join(content, 'Full Sessions'))).to.deep.equal([]);

    const again = await service.importFiles({ sectionId: 'sessions', FilePaths: files });
    if (again.status !== 'waiting') throw new Error('expected a second warning');
    await warnings.answer({ warningId: again.warningId, confirmed: true, action: 'import' });
    expect(library.list()).to.have.length(3);
    expect(events.of('ImportProgress').at(-1)).to.deep.include({ status: 'done', message: 'Completed: 2 successful, 1 failed' });
  });

  it('uses the multi-file picker without FilePaths; a cancel does nothing; no picker is a modal and Unavailable', async () => {
    const file = path.join(sources, 'picked.mp4');
    await generateVideo(toolbox.requireFfmpeg('The test').ffmpeg.path, file, { seconds: 1, width: 320, height: 180 });
    const started = await build(async () => [file]).importFiles({ sectionId: 'sessions' });
    expect(started.status).to.equal('imported');
    expect(picked[0]).to.deep.include({ multiple: true });
    expect(picked[0]!.patterns).to.include('*.mp4');
    expect(library.list().map((item) => item.fileName)).to.deep.equal(['picked']);

    const before = events.sent.length;
    expect(await build(async () => []).importFiles({ sectionId: 'sessions' })).to.deep.equal({ status: 'cancelled' });
    expect(events.sent.length).to.equal(before);

    const rejection = await commandRejection(
      build(async () => {
        throw new PickerUnavailableError();
      }).importFiles({ sectionId: 'sessions' }),
      'Unavailable',
    );
    expect(rejection.message).to.match(/file picker/);
    expect(events.of('ShowModal').at(-1)).to.deep.include({ title: 'No file picker available', type: 'error' });
  });

  it('refuses an unknown section with an Import Error modal, and relative paths', async () => {
    const service = build();
    await commandRejection(service.importFiles({ sectionId: 'clips' as never, FilePaths: ['/tmp/x.mp4'] }), 'InvalidParameters');
    expect(events.of('ShowModal')).to.have.length(1);
    expect(events.of('ShowModal')[0]).to.deep.include({ title: 'Import Error', type: 'error' });
    await commandRejection(service.importFiles({ sectionId: 'sessions', FilePaths: ['video.mp4'] }), 'InvalidParameters');
    expect(events.of('ImportProgress')).to.deep.equal([]);
  });
});
