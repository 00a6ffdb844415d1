import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FfmpegToolbox } from '../../media/ffmpeg-toolbox.js';
import { probeMedia } from '../../media/probe.js';
import { formatDuration, type Bookmark } from '../../protocol/index.js';
import { fromWireBookmark } from '../../library/content-item.js';
import {
  commandRejection,
  createMediaWorld,
  createRecorder,
  generateVideo,
  type MediaWorld,
  RecordedEvents,
} from '../../testing/fixtures.js';
import { ContentLibrary, type ContentRecord } from '../../library/content-library.js';
import { HighlightService } from './highlight-service.js';
import { RecorderService } from '../../recording/recorder-service.js';
import { SettingsStore } from '../../settings/settings-store.js';

const bookmark = (id: number, type: Bookmark['type'], seconds: number): Bookmark => ({
  id,
  type,
  subtype: null,
  time: formatDuration(seconds),
  aiRating: null,
});
const run = (file: string, args: string[]) =>
  new Promise<void>((resolve, reject) => {
    execFile(file, args, (error, _stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve()));
  });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('HighlightService', function () {
  this.timeout(60000);
  let events: RecordedEvents;
  let settings: SettingsStore;
  let library: ContentLibrary;
  let toolbox: FfmpegToolbox;
  let recorder: RecorderService;
  let highlights: HighlightService;

  let world: MediaWorld;

  beforeEach(async () => {
    world = await createMediaWorld('keyframe-highlight-', {
      resolution: '720p',
      frameRate: 30,
      crfValue: 30,
      clipPreset: 'ultrafast',
      clipFps: 30,
    });
    ({ events, settings, library, toolbox } = world);
    recorder = createRecorder(world);
    highlights = world.app.fresh(HighlightService, [[RecorderService, recorder]]);
  });
  afterEach(async () => {
    await world.jobs.idle();
    await recorder.shutdown();
    await world.dispose();
  });

  const session = async (
    name: string,
    seconds: number,
    bookmarks: Bookmark[],
    make?: (target: string) => Promise<void>,
  ): Promise<ContentRecord> => {
    const filePath = library.contentPath('Session', 'Arena', `${name}.mp4`);
    await mkdir(path.dirname(filePath), { recursive: true });
    if (make) await make(filePath);
    else
      await generateVideo(toolbox.requireFfmpeg('The test').ffmpeg.path, filePath, { seconds, width: 320, height: 180, tones: [440, 660] });
    return library.add({
      type: 'Session',
      filePath,
      game: 'Arena',
      durationSeconds: seconds,
      bookmarks: bookmarks.map(fromWireBookmark),
      audioTrackNames: ['Track 1', 'Track 2'],
    });
  };
  const highlightFiles = async () => readdir(path.join(settings.current.contentFolder, 'Highlights', 'Arena')).catch(() => []);

  it('joins the merged bookmark windows into a Highlight with the bookmarks re-based', async () => {
    // Kill 4 s → 0-7, Kill 5 s → 0-8 (merged); Death and Manual do not count; Assist 17 s → 11-20.
    const marks = [
      bookmark(1, 'Kill', 4),
      bookmark(2, 'Kill', 5),
      bookmark(3, 'Death', 9.5),
      bookmark(4, 'Manual', 15),
      bookmark(5, 'Assist', 17),
    ];
    const source = await session('with-bookmarks', 20, marks);
    const outcome = await highlights.createFor('with-bookmarks');
    if (outcome.status !== 'done') throw new Error(outcome.message);
    expect(outcome.source).to.equal('bookmarks');
    expect(outcome.windows.map((window) => [window.start, window.end])).to.deep.equal([
      [0, 8],
      [11, 20],
    ]);

    const item = outcome.item;
    expect(item).to.deep.include({ type: 'Highlight', game: 'Arena', audioTrackNames: ['Track 1', 'Track 2'] });
    expect(item.filePath).to.match(/\/Videos\/Highlights\/Arena\/[^/]+\.mp4$/);
    const probed = await probeMedia(toolbox.requireFfmpeg('The test').ffprobe.path, item.filePath);
    expect(probed.durationSeconds).to.be.closeTo(17, 0.1);
    expect(probed.streams.filter((stream) => stream.type === 'audio').map((stream) => stream.title)).to.deep.equal(['Track 1', 'Track 2']);
    expect(item.bookmarks.map((mark) => [mark.id, mark.seconds])).to.deep.equal([
      [1, 4],
      [2, 5],
      [4, 12],
      [5, 14],
    ]);
    expect(library.list().filter((entry) => entry.type === 'Highlight')).to.have.length(1);
    expect(await highlightFiles()).to.deep.equal([path.basename(item.filePath)]);

    const progress = events.of('AiProgress');
    expect(new Set(progress.map((event) => event.id)).size).to.equal(1);
    expect(progress[0]).to.deep.include({ progress: 0, status: 'processing', message: 'Found 3 moments' });
    const values = progress.map((event) => event.progress);
    expect(values).to.deep.equal([...values].sort((a, b) => a - b));
    expect(values.some((value) => value > 10 && value < 90)).to.equal(true);
    expect(progress.at(-1)).to.deep.include({ progress: 100, status: 'done', message: 'Done' });
    expect(progress.filter((event) => event.status === 'done')).to.have.length(1);
    expect(progress.every((event) => event.content.fileName === source.fileName && event.content.type === 'Session')).to.equal(true);
    console.log(`      highlight: ${values.length} AiProgress events, ${probed.durationSeconds?.toFixed(3)} s for 17 s of windows`);
  });

  it('uses the loudest seconds of a session without bookmarks', async () => {
    settings.replace({ ...settings.current, highlightPaddingBefore: 2, highlightPaddingAfter: 2 });
    await session('loud-moments', 20, [bookmark(9, 'Manual', 3)], async (target) =>
      run(toolbox.requireFfmpeg('The test').ffmpeg.path, [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=320x180:rate=30:duration=20',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=48000:duration=20',
        '-map',
        '0:v',
        '-map',
        '1:a',
        '-af',
        "volume=volume='if(between(t,5,6)+between(t,14,15),1,0.02)':eval=frame",
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-y',
        target,
      ]),
    );
    const outcome = await highlights.createFor('loud-moments');
    if (outcome.status !== 'done') throw new Error(outcome.message);
    expect(outcome.source).to.equal('audio');
    expect(outcome.windows).to.have.length(2);
    const [first, second] = outcome.windows;
    expect(first!.start).to.be.at.most(5);
    expect(first!.end).to.be.at.least(6);
    expect(second!.start).to.be.at.most(14);
    expect(second!.end).to.be.at.least(15);
    expect(first!.end).to.be.below(14);
    const probed = await probeMedia(toolbox.requireFfmpeg('The test').ffprobe.path, outcome.item.filePath);
    const planned = outcome.windows.reduce((sum, window) => sum + window.end - window.start, 0);
    expect(probed.durationSeconds).to.be.closeTo(planned, 0.1);
    expect(events.of('AiProgress').at(-1)).to.deep.include({ progress: 100, status: 'done' });
    console.log(
      `      audio peaks: windows ${outcome.windows.map((window) => `${window.start.toFixed(2)}-${window.end.toFixed(2)}`).join(', ')}`,
    );
  });

  it('refuses an unknown name, and reports a vanished source as -1 leaving no file', async () => {
    await commandRejection(highlights.createFor('nothing-like-this'), 'NotFound');
    expect(events.of('AiProgress')).to.deep.equal([]);
    const source = await session('vanished', 4, [bookmark(1, 'Kill', 2)]);
    await rm(source.filePath);
    const outcome = await highlights.createFor('vanished');
    expect(outcome.status).to.equal('error');
    const last = events.of('AiProgress').at(-1)!;
    expect(last).to.deep.include({ progress: -1, status: 'error' });
    expect(last.message).to.match(/^Error: Source video not found/);
    expect(await highlightFiles()).to.deep.equal([]);
    expect(library.list().filter((entry) => entry.type === 'Highlight')).to.deep.equal([]);
  });

  it('makes a highlight by itself when a session with a kill stops and auto-highlight is on', async () => {
    expect(settings.current.autoGenerateHighlights).to.equal(true);
    await recorder.start({ game: 'Arena' });
    await wait(2500);
    expect(recorder.current!.addBookmark(bookmark(77, 'Kill', 1), 1)).to.equal(true);
    await wait(500);
    const session = await recorder.stop();
    expect(session).to.not.equal(undefined);
    await world.jobs.idle();
    const made = library.list().filter((entry) => entry.type === 'Highlight');
    expect(made).to.have.length(1);
    expect(made[0]!.bookmarks.map((mark) => mark.id)).to.deep.equal([77]);
    expect(events.of('AiProgress').at(-1)).to.deep.include({ progress: 100, status: 'done' });
  });

  it('makes none when auto-highlight is off or the session has no positive bookmark', async () => {
    settings.replace({ ...settings.current, autoGenerateHighlights: false });
    await recorder.start({ game: 'Arena' });
    await wait(1500);
    recorder.current!.addBookmark(bookmark(78, 'Kill', 1), 1);
    await recorder.stop();
    settings.replace({ ...settings.current, autoGenerateHighlights: true });
    await recorder.start({ game: 'Arena' });
    await wait(1500);
    recorder.current!.addBookmark(bookmark(79, 'Death', 1), 1);
    await recorder.stop();
    await world.jobs.idle();
    expect(library.list().filter((entry) => entry.type === 'Highlight')).to.deep.equal([]);
    expect(events.of('AiProgress')).to.deep.equal([]);
  });
});
