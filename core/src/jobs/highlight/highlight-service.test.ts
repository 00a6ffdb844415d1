import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FfmpegToolbox } from '../../media/ffmpeg-toolbox.js';
import { plannedSeconds, type PlannedWindow } from '../../media/highlight-plan.js';
import { probeMedia, type ProbeResult } from '../../media/probe.js';
import { FRAGMENTED_MP4_FLAGS } from '../../media/session-encoding.js';
import { formatDuration, type Bookmark } from '../../protocol/index.js';
import { fromWireBookmark } from '../../library/content-item.js';
import {
  commandRejection,
  createMediaWorld,
  createRecorder,
  folderSnapshot,
  generateVideo,
  type MediaWorld,
  RecordedEvents,
} from '../../testing/fixtures.js';
import { ContentLibrary, type ContentRecord } from '../../library/content-library.js';
import { highlightArgs, HighlightService } from './highlight-service.js';
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

/** Bits of the frame number drawn into each frame of a clock video, one column each, white for 1. */
const CLOCK_BITS = 10;
/**
 * A clock video: frame `n` shows `n` in binary; audio is a 20 ms beep at each whole second of the source.
 * Fragmented as a recorded session is (a fragment a second), where a seek must find its fragment.
 */
const clockVideoArgs = (seconds: number, frameRate: number, target: string): string[] => [
  ...['-v', 'error', '-f', 'lavfi', '-i'],
  `nullsrc=size=${CLOCK_BITS}x2:rate=${frameRate}:duration=${seconds},geq=lum='if(bitand(N\\,pow(2\\,X))\\,235\\,16)':cb=128:cr=128,scale=320:180:flags=neighbor`,
  ...['-f', 'lavfi', '-i', `aevalsrc='if(lt(mod(t\\,1)\\,0.02)\\,sin(2*PI*1000*t)\\,0)':s=48000:d=${seconds}`],
  ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', String(frameRate * 2), '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
  ...['-movflags', FRAGMENTED_MP4_FLAGS, '-frag_duration', '1000000', '-y', target],
];
/** The output of `ffmpeg args` on stdout, as bytes. */
const rawOutput = (file: string, args: string[]) =>
  new Promise<Buffer>((resolve, reject) => {
    execFile(file, args, { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(stderr.toString() || error.message)) : resolve(stdout),
    );
  });
/** The frame number each frame of a clock video (or a cut of one) shows. */
async function clockFrames(ffmpegPath: string, video: string): Promise<number[]> {
  const pixels = await rawOutput(ffmpegPath, [
    '-v',
    'error',
    '-i',
    video,
    '-vf',
    `scale=${CLOCK_BITS}:1:flags=neighbor,format=gray`,
    '-f',
    'rawvideo',
    '-',
  ]);
  const frames: number[] = [];
  for (let offset = 0; offset + CLOCK_BITS <= pixels.length; offset += CLOCK_BITS) {
    let frame = 0;
    for (let bit = 0; bit < CLOCK_BITS; bit++) if (pixels[offset + bit]! > 128) frame |= 1 << bit;
    frames.push(frame);
  }
  return frames;
}
/** Seconds at which a beep starts in the first audio track (mono, 8 kHz is close enough). */
async function beepStarts(ffmpegPath: string, video: string): Promise<number[]> {
  const rate = 8000;
  const samples = await rawOutput(ffmpegPath, [
    '-v',
    'error',
    '-i',
    video,
    '-map',
    '0:a:0',
    '-ac',
    '1',
    '-ar',
    String(rate),
    '-f',
    's16le',
    '-',
  ]);
  const starts: number[] = [];
  let quiet = Number.POSITIVE_INFINITY;
  for (let index = 0; index + 1 < samples.length; index += 2) {
    const loud = Math.abs(samples.readInt16LE(index)) > 3000;
    if (loud && quiet > rate * 0.5) starts.push(index / 2 / rate);
    quiet = loud ? 0 : quiet + 1;
  }
  return starts;
}

describe('highlightArgs', () => {
  const probed: ProbeResult = {
    durationSeconds: 600,
    formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
    sizeBytes: 1,
    streams: [
      { index: 0, type: 'video', codec: 'h264', frameRate: 60 },
      { index: 1, type: 'audio', codec: 'aac', title: 'Game' },
      { index: 2, type: 'audio', codec: 'aac', title: 'Mic' },
    ],
  };
  const quality = { clipPreset: 'veryfast', clipQualityCpu: 23, clipFps: 30, clipAudioQuality: '128k' } as const;

  it('opens the source once per window, seeked to it, and joins the windows at the clip settings', () => {
    const windows = [
      { start: 12.25, end: 23.5, moments: [20] },
      { start: 300, end: 311, moments: [308] },
    ];
    const args = highlightArgs('/videos/s.mp4', '/out/h.mp4', windows, probed, quality);
    const input = (start: string, length: string) => [
      '-ss',
      start,
      '-t',
      length,
      '-protocol_whitelist',
      'file,pipe',
      '-format_whitelist',
      'mov,matroska,mpegts,avi,flv,asf,mpeg,ogg,wav',
      '-i',
      '/videos/s.mp4',
    ];
    expect(args.slice(0, 20)).to.deep.equal([...input('12.250', '11.250'), ...input('300.000', '11.000')]);
    const graph = args[args.indexOf('-filter_complex') + 1]!.split(';');
    expect(graph).to.deep.equal([
      '[0:v:0]setpts=PTS-STARTPTS[v0]',
      '[0:a:0]asetpts=PTS-STARTPTS[a0_0]',
      '[0:a:1]asetpts=PTS-STARTPTS[a0_1]',
      '[1:v:0]setpts=PTS-STARTPTS[v1]',
      '[1:a:0]asetpts=PTS-STARTPTS[a1_0]',
      '[1:a:1]asetpts=PTS-STARTPTS[a1_1]',
      '[v0][a0_0][a0_1][v1][a1_0][a1_1]concat=n=2:v=1:a=2[vc][ao0][ao1]',
      '[vc]format=yuv420p,fps=30[vo]',
    ]);
    expect(args.slice(args.indexOf('-filter_complex') + 2)).to.deep.equal([
      ...['-map', '[vo]', '-map', '[ao0]', '-map', '[ao1]'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-c:a', 'aac', '-b:a', '128k'],
      ...[
        '-metadata:s:a:0',
        'title=Game',
        '-metadata:s:a:0',
        'handler_name=Game',
        '-metadata:s:a:1',
        'title=Mic',
        '-metadata:s:a:1',
        'handler_name=Mic',
      ],
      ...['-movflags', '+faststart', '-f', 'mp4', '-y', '/out/h.mp4'],
    ]);
  });
});

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
    expect(progress[0]).to.deep.include({ progress: 0, status: 'processing', message: 'Looking for the best moments' });
    expect(progress[1]).to.deep.include({ progress: 0, status: 'processing', message: 'Found 3 moments' });
    const values = progress.map((event) => event.progress);
    expect(values).to.deep.equal([...values].sort((a, b) => a - b));
    expect(values.some((value) => value > 10 && value < 90)).to.equal(true);
    expect(progress.at(-1)).to.deep.include({ progress: 100, status: 'done', message: 'Done' });
    expect(progress.at(-1)!.output).to.deep.equal({
      filePath: item.filePath,
      fileName: item.fileName,
      type: 'Highlight',
      title: item.title,
    });
    expect(progress.filter((event) => event.status === 'done')).to.have.length(1);
    expect(progress.every((event) => event.content.fileName === source.fileName && event.content.type === 'Session')).to.equal(true);
    console.log(`      highlight: ${values.length} AiProgress events, ${probed.durationSeconds?.toFixed(3)} s for 17 s of windows`);
  });

  it('cuts each window at its planned frame, with the sound in step, from a frame-numbered clock video', async () => {
    const frameRate = 30;
    const { ffmpeg } = toolbox.requireFfmpeg('The test');
    // Kill 10.21 s → 2.21-13.21; Kill 26.1 s → 18.1-29.1: neither starts on a frame or a keyframe (every 2 s).
    await session('clock', 30, [bookmark(1, 'Kill', 10.21), bookmark(2, 'Kill', 26.1)], (target) =>
      run(ffmpeg.path, clockVideoArgs(30, frameRate, target)),
    );
    const outcome = await highlights.createFor('clock');
    if (outcome.status !== 'done') throw new Error(outcome.message);
    const windows = outcome.windows;
    expect(windows.map((window) => [window.start, window.end].map((time) => Number(time.toFixed(3))))).to.deep.equal([
      [2.21, 13.21],
      [18.1, 29.1],
    ]);
    const frames = await clockFrames(ffmpeg.path, outcome.item.filePath);
    // Where the highlight jumps from one window to the next: the frames on either side of each cut.
    const cuts = frames.flatMap((frame, index) => (index > 0 && frame !== frames[index - 1]! + 1 ? [[frames[index - 1]!, frame]] : []));
    const firstFrame = (seconds: number) => Math.ceil(seconds * frameRate - 1e-6);
    const [first, second] = windows as [PlannedWindow, PlannedWindow];
    expect(frames[0]).to.be.closeTo(firstFrame(first.start), 1);
    expect(cuts).to.have.length(1);
    expect(cuts[0]![0]).to.be.closeTo(firstFrame(first.end) - 1, 1);
    expect(cuts[0]![1]).to.be.closeTo(firstFrame(second.start), 1);
    expect(frames.at(-1)).to.be.closeTo(firstFrame(second.end) - 1, 1);
    expect(frames.length).to.be.closeTo(plannedSeconds(windows) * frameRate, 1);
    const probed = await probeMedia(toolbox.requireFfmpeg('The test').ffprobe.path, outcome.item.filePath);
    expect(probed.durationSeconds).to.be.closeTo(plannedSeconds(windows), 1 / frameRate);

    // The source beeps at each whole second; in the highlight each beep must come where its second lands.
    let offset = 0;
    const expected = windows.flatMap((window) => {
      const seconds = Array.from(
        { length: Math.floor(window.end) - Math.ceil(window.start) + 1 },
        (_, index) => Math.ceil(window.start) + index,
      );
      const beeps = seconds.filter((second) => second < window.end - 0.05).map((second) => offset + second - window.start);
      offset += window.end - window.start;
      return beeps;
    });
    const heard = await beepStarts(ffmpeg.path, outcome.item.filePath);
    expect(heard).to.have.length(expected.length);
    heard.forEach((time, index) => expect(time, `beep ${index}`).to.be.closeTo(expected[index]!, 1 / frameRate));
    console.log(`      clock: ${frames.length} frames, cut ${cuts[0]!.join(' → ')}, ${heard.length} beeps in step`);
  });

  it('CancelAiClip while ffmpeg cuts the windows: ffmpeg stopped, the content folder as before, -1 with cancelled', async () => {
    settings.replace({ ...settings.current, clipPreset: 'slower' }); // an encode long enough to be caught running
    const { ffmpeg } = toolbox.requireFfmpeg('The test');
    await session('cancelled', 30, [bookmark(1, 'Kill', 10.21), bookmark(2, 'Kill', 26.1)], (target) =>
      run(ffmpeg.path, clockVideoArgs(30, 30, target)),
    );
    const before = await folderSnapshot(settings.current.contentFolder);
    const outcome = highlights.createFor('cancelled');
    while (!(await highlightFiles()).some((name) => name.endsWith('.part'))) await wait(10);
    const { id } = events.of('AiProgress')[0]!;
    await highlights.cancel(id);
    expect(world.jobs.jobs('highlight')).to.deep.equal([]);
    expect(await outcome).to.deep.equal({ status: 'cancelled', message: 'Highlight cancelled' });
    expect(events.of('AiProgress').at(-1)).to.deep.include({
      id,
      progress: -1,
      status: 'error',
      message: 'Highlight cancelled',
      cancelled: true,
    });
    expect(await folderSnapshot(settings.current.contentFolder)).to.deep.equal(before);
    expect(library.list().filter((entry) => entry.type === 'Highlight')).to.deep.equal([]);
    await commandRejection(highlights.cancel(id), 'NotFound');
    await commandRejection(highlights.cancel('no-such-highlight'), 'NotFound');
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
    expect(events.of('AiProgress').map((event) => event.message)).to.include('Found 1 moment');
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
