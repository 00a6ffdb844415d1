import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FfmpegToolbox } from '../../media/ffmpeg-toolbox.js';
import { moveFile } from '../../media/move-file.js';
import { probeMedia } from '../../media/probe.js';
import type { Codec } from '../../protocol/index.js';
import {
  commandRejection,
  createMediaWorld,
  createRecorder,
  folderSnapshot,
  type MediaWorld,
  RecordedEvents,
} from '../../testing/fixtures.js';
import { compressionEncoder, CompressionService } from './compression-service.js';
import { ContentItemQueue } from '../../library/content-item-queue.js';
import { ContentLibrary, type ContentRecord } from '../../library/content-library.js';
import { RecorderService } from '../../recording/recorder-service.js';
import { SettingsStore } from '../../settings/settings-store.js';
import { StatePublisher } from '../../state/state-publisher.js';

/** A 640x360 H.264 MP4 with two named audio tracks; `video` sets how the picture is encoded. */
async function encodeTestVideo(ffmpegPath: string, target: string, seconds: number, video: readonly string[]): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const args = [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=640x360:rate=30:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=880:sample_rate=48000:duration=${seconds}`,
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-map',
    '2:a',
    '-c:v',
    'libx264',
    ...video,
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-ac',
    '2',
    '-metadata:s:a:0',
    'title=Full Mix',
    '-metadata:s:a:0',
    'handler_name=Full Mix',
    '-metadata:s:a:1',
    'title=Microphone',
    '-metadata:s:a:1',
    'handler_name=Microphone',
    '-movflags',
    '+faststart',
    '-y',
    target,
  ];
  await new Promise<void>((resolve, reject) => {
    execFile(ffmpegPath, args, (error, _stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve()));
  });
}

/** Every file below `folder`, relative. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

const HIGH_BITRATE = ['-preset', 'ultrafast', '-qp', '6'];
const TINY = ['-preset', 'veryslow', '-b:v', '16k'];
const SECONDS = 3;

describe('CompressionService', function () {
  this.timeout(120000);
  let folder: string;
  let content: string;
  let events: RecordedEvents;
  let settings: SettingsStore;
  let state: StatePublisher;
  let library: ContentLibrary;
  let toolbox: FfmpegToolbox;
  let recorder: RecorderService;
  let service: CompressionService;

  /** A compression service over the world's, with this recorder and queue of item edits. */
  const build = (recorderService: RecorderService = recorder, items = new ContentItemQueue()) =>
    world.app.fresh(CompressionService, [
      [RecorderService, recorderService],
      [ContentItemQueue, items],
    ]);

  const addVideo = async (name: string, video: readonly string[]): Promise<ContentRecord> => {
    const file = library.contentPath('Session', 'Arena', `${name}.mp4`);
    await encodeTestVideo(toolbox.requireFfmpeg('The test').ffmpeg.path, file, SECONDS, video);
    return library.add({
      type: 'Session',
      filePath: file,
      game: 'Arena',
      durationSeconds: SECONDS,
      title: 'Ace round',
      audioTrackNames: ['Full Mix', 'Microphone'],
      bookmarks: [{ id: 7, type: 'Kill', seconds: 1 }],
    });
  };

  const progress = (filePath: string) => events.of('CompressionProgress').filter((event) => event.filePath === filePath);

  let world: MediaWorld;

  beforeEach(async () => {
    world = await createMediaWorld('keyframe-compression-', { clipEncoder: 'cpu', clipQualityCpu: 28 });
    ({ folder, events, settings, state, library, toolbox } = world);
    content = settings.current.contentFolder;
    recorder = createRecorder(world);
    service = build();
  });
  afterEach(() => world.dispose());

  it('chooses HEVC where the build has it, H.264 where not, quality from the clip settings', () => {
    const codec = (id: string, hardware = false): Codec => ({ friendlyName: id, internalEncoderId: id, isHardwareEncoder: hardware });
    const clip = { clipEncoder: 'cpu' as const, clipQualityCpu: 26, clipQualityGpu: 30, clipPreset: 'fast' as const };
    expect(compressionEncoder(clip, [codec('libx264'), codec('libx265')], 30).args).to.include.ordered.members([
      '-c:v',
      'libx265',
      '-preset',
      'fast',
      '-crf',
      '26',
    ]);
    expect(compressionEncoder(clip, [codec('libx264')], 30).args).to.include.ordered.members([
      '-c:v',
      'libx264',
      '-preset',
      'fast',
      '-crf',
      '26',
    ]);
    expect(compressionEncoder(clip, [], 30).entry.id).to.equal('libx264');
    const gpu = compressionEncoder({ ...clip, clipEncoder: 'gpu' }, [codec('libx265'), codec('hevc_nvenc', true)], 60);
    expect(gpu.entry.id).to.equal('hevc_nvenc');
    expect(gpu.args).to.include('30');
    expect(compressionEncoder(clip, [codec('libx264'), codec('hevc_vaapi', true)], 30).entry.id).to.equal('hevc_vaapi');
  });

  it('compresses a high-bitrate video into a smaller, playable one beside it, keeping the original by default', async () => {
    const item = await addVideo('high', HIGH_BITRATE);
    const source = path.resolve(item.filePath);
    const originalBytes = (await stat(source)).size;
    const original = await readFile(source);

    const outcome = await service.compress(item.filePath);

    expect(outcome.status).to.equal('done');
    if (outcome.status !== 'done') return;
    expect(outcome.sizeBytes).to.be.lessThan(originalBytes);
    expect((await readFile(source)).equals(original)).to.equal(true);
    const compressed = outcome.item;
    expect(compressed.id).to.not.equal(item.id);
    expect(compressed).to.deep.include({
      type: 'Session',
      game: 'Arena',
      title: 'Ace round',
      compressed: true,
      bookmarks: item.bookmarks,
      audioTrackNames: ['Full Mix', 'Microphone'],
    });
    expect(compressed.filePath).to.equal(item.filePath.replace(/high\.mp4$/, 'high_compressed.mp4'));
    expect(library.list().map((entry) => entry.id)).to.have.members([item.id, compressed.id]);
    expect((await stat(compressed.filePath)).size).to.equal(outcome.sizeBytes);

    const probed = await probeMedia(toolbox.requireFfmpeg('The test').ffprobe.path, compressed.filePath);
    const before = await probeMedia(toolbox.requireFfmpeg('The test').ffprobe.path, source);
    expect(probed.durationSeconds).to.be.closeTo(before.durationSeconds!, 0.1);
    const audio = probed.streams.filter((stream) => stream.type === 'audio');
    expect(audio.map((stream) => stream.title)).to.deep.equal(['Full Mix', 'Microphone']);
    expect(audio.map((stream) => stream.codec)).to.deep.equal(['aac', 'aac']);
    const expectedCodec = toolbox.codecs.some((codec) => codec.internalEncoderId === 'libx265') ? 'hevc' : 'h264';
    expect(probed.streams.find((stream) => stream.type === 'video')?.codec).to.equal(expectedCodec);

    const reports = progress(item.filePath);
    expect(reports[0]).to.deep.equal({ filePath: item.filePath, progress: 0, status: 'compressing' });
    expect(reports.at(-1)).to.deep.equal({
      filePath: item.filePath,
      progress: 100,
      status: 'done',
      output: { filePath: outcome.item.filePath, fileName: 'high_compressed', type: 'Session', title: 'Ace round' },
    });
    const percents = reports.map((report) => report.progress);
    expect(percents).to.deep.equal([...percents].sort((a, b) => a - b));
    expect(percents.slice(0, -1).every((percent) => percent < 100)).to.equal(true);
    expect((await filesUnder(content)).filter((file) => file.includes('.part'))).to.deep.equal([]);
  });

  it('names the copy <name>_compressed (1).mp4 when <name>_compressed.mp4 is a file of the user, which stays untouched', async () => {
    const item = await addVideo('taken', HIGH_BITRATE);
    const users = path.join(path.dirname(item.filePath), 'taken_compressed.mp4');
    await writeFile(users, 'not a video of Keyframe');

    const outcome = await service.compress(item.filePath);

    expect(outcome.status === 'done' && path.basename(outcome.item.filePath)).to.equal('taken_compressed (1).mp4');
    expect(await readFile(users, 'utf8')).to.equal('not a video of Keyframe');
  });

  it('replaces the video of the item when removeOriginalAfterCompression is on', async () => {
    settings.replace({ ...settings.current, removeOriginalAfterCompression: true });
    const item = await addVideo('replace', HIGH_BITRATE);
    const originalBytes = (await stat(item.filePath)).size;

    const outcome = await service.compress(item.filePath);

    expect(outcome.status).to.equal('done');
    expect(progress(item.filePath).at(-1)!.output).to.deep.include({ filePath: item.filePath, type: 'Session' });
    const updated = library.get(item.id)!;
    expect(updated).to.deep.include({ filePath: item.filePath, fileName: 'replace', compressed: true });
    const size = (await stat(item.filePath)).size;
    expect(size).to.be.lessThan(originalBytes);
    expect(updated.sizeBytes).to.equal(size);
    expect(library.list()).to.have.length(1);
    expect(await filesUnder(path.dirname(path.resolve(item.filePath)))).to.deep.equal(['replace.mp4']);
    expect(state.current.content[0]).to.deep.include({ compressed: true, fileSizeKb: Math.floor(size / 1024) });
  });

  it('replaces the video where the item is now when it was renamed during the compression, leaving no other file', async () => {
    settings.replace({ ...settings.current, removeOriginalAfterCompression: true });
    const items = new ContentItemQueue();
    service = build(recorder, items);
    const item = await addVideo('replace', HIGH_BITRATE);
    const folderOfItem = path.dirname(path.resolve(item.filePath));
    const originalBytes = (await stat(item.filePath)).size;
    // An edit of the item is under way (held in its queue), so the finished compression waits for it.
    let finishEdit!: () => void;
    const edit = items.run(
      item.id,
      () =>
        new Promise<void>((resolve) => {
          finishEdit = resolve;
        }),
    );

    const compressing = service.compress(item.filePath);
    // ffmpeg writes its output only once it has opened the input: from then on the input may move.
    while (!(await readdir(folderOfItem)).some((name) => name.endsWith('.part'))) await new Promise((resolve) => setTimeout(resolve, 20));
    const renamed = await moveFile(item.filePath, path.join(folderOfItem, 'renamed.mp4'));
    await library.update(item.id, { filePath: renamed });
    finishEdit();
    await edit;

    expect((await compressing).status).to.equal('done');
    expect(library.get(item.id)).to.deep.include({ fileName: 'renamed', compressed: true });
    expect((await stat(renamed)).size).to.be.lessThan(originalBytes);
    expect(await filesUnder(folderOfItem)).to.deep.equal(['renamed.mp4']);
  });

  it('skips a video that does not get smaller and leaves the original untouched', async () => {
    const item = await addVideo('tiny', TINY);
    const original = await readFile(item.filePath);
    const before = await stat(item.filePath);
    const files = await filesUnder(content);

    const outcome = await service.compress(item.filePath);

    expect(outcome.status).to.equal('skipped');
    expect((await readFile(item.filePath)).equals(original)).to.equal(true);
    expect((await stat(item.filePath)).mtimeMs).to.equal(before.mtimeMs);
    expect(await filesUnder(content)).to.deep.equal(files);
    expect(library.list()).to.have.length(1);
    expect(library.get(item.id)!.compressed).to.equal(false);
    expect(progress(item.filePath).at(-1)).to.deep.equal({
      filePath: item.filePath,
      progress: 100,
      status: 'skipped',
      message: 'Compressed file was not smaller',
    });
  });

  it('refuses paths outside the content folder, through links, and files not in the library', async () => {
    const outside = path.join(folder, 'outside.mp4');
    await writeFile(outside, 'not in the library');
    await mkdir(path.join(content, 'Clips'), { recursive: true });
    await symlink(outside, path.join(content, 'Clips', 'link.mp4'));
    await commandRejection(service.compress(outside), 'NotAllowed');
    await commandRejection(service.compress(path.join(content, '..', 'outside.mp4')), 'NotAllowed');
    await commandRejection(service.compress(path.join(content, 'Clips', 'link.mp4')), 'NotAllowed');
    await commandRejection(service.compress('relative/x.mp4'), 'NotAllowed');
    await commandRejection(service.compress(path.join(content, 'Clips', 'missing.mp4')), 'NotFound');
    expect(events.of('CompressionProgress')).to.deep.equal([]);
    expect(await readFile(outside, 'utf8')).to.equal('not in the library');
  });

  it('refuses a second compression of the same file while one runs, and the active recording', async () => {
    const item = await addVideo('busy', HIGH_BITRATE);
    const first = service.compress(item.filePath);
    while (!service.isCompressing(path.resolve(item.filePath))) await new Promise((resolve) => setTimeout(resolve, 5));
    await commandRejection(service.compress(item.filePath), 'NotAllowed');
    expect((await first).status).to.equal('done');

    const recording = { current: { isWriting: (file: string) => file === path.resolve(item.filePath) } };
    const whileRecording = build(recording as unknown as RecorderService);
    const rejection = await commandRejection(whileRecording.compress(item.filePath), 'NotAllowed');
    expect(rejection.message).to.match(/being recorded/);
  });

  it('CancelCompression of a video it would replace: ffmpeg stopped, the folder byte-identical, -1 with cancelled', async () => {
    settings.replace({ ...settings.current, removeOriginalAfterCompression: true, clipPreset: 'slower' });
    const item = await addVideo('keep me', HIGH_BITRATE);
    const before = await folderSnapshot(content);
    const outcome = service.compress(item.filePath);
    const folder = path.dirname(item.filePath);
    while (!(await readdir(folder)).some((name) => name.endsWith('.part'))) await new Promise((resolve) => setTimeout(resolve, 10));
    await service.cancel(item.filePath);
    expect(await outcome).to.deep.equal({ status: 'cancelled', message: 'Compression cancelled' });
    expect(progress(item.filePath).at(-1)).to.deep.equal({
      filePath: item.filePath,
      progress: -1,
      status: 'error',
      message: 'Compression cancelled',
      cancelled: true,
    });
    expect(await folderSnapshot(content)).to.deep.equal(before);
    expect(library.get(item.id)).to.deep.include({ filePath: item.filePath, compressed: false });
    expect(service.isCompressing(path.resolve(item.filePath))).to.equal(false);
    await commandRejection(service.cancel(item.filePath), 'NotFound');
  });

  it('reports a failure with -1 and leaves no file behind', async () => {
    const item = await addVideo('broken', HIGH_BITRATE);
    // A video that ffprobe reads (header intact) but whose picture data is gone.
    const bytes = await readFile(item.filePath);
    await writeFile(item.filePath, bytes.subarray(0, 4096));
    const files = await filesUnder(content);

    const outcome = await service.compress(item.filePath);

    expect(outcome.status).to.equal('error');
    const last = progress(item.filePath).at(-1)!;
    expect(last).to.deep.include({ progress: -1, status: 'error' });
    expect(last.message).to.match(/^Could not compress broken\.mp4: /);
    expect(await filesUnder(content)).to.deep.equal(files);
    expect(library.list()).to.have.length(1);
    expect(library.get(item.id)!.compressed).to.equal(false);

    // ffmpeg itself failing once its output is open: an encoder quality it refuses.
    const whole = await addVideo('refused', HIGH_BITRATE);
    settings.replace({ ...settings.current, clipQualityCpu: 99 });
    const before = await filesUnder(content);
    const failed = await service.compress(whole.filePath);
    expect(failed.status).to.equal('error');
    expect(progress(whole.filePath).at(-1)).to.deep.include({ progress: -1, status: 'error' });
    expect(await filesUnder(content)).to.deep.equal(before);
  });
});
