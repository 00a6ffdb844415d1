import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { FfmpegToolbox } from '../../media/ffmpeg-toolbox.js';
import { readMp4Layout } from '../../media/mp4-layout.js';
import { probeMedia } from '../../media/probe.js';
import type { EventContent, Segment } from '../../protocol/index.js';
import {
  commandRejection,
  createMediaWorld,
  generateVideo,
  type MediaWorld,
  RecordedEvents,
  toolboxWithoutFfmpeg,
} from '../../testing/fixtures.js';
import { ClipService } from './clip-service.js';
import { ContentLibrary, type ContentRecord } from '../../library/content-library.js';
import { SettingsStore } from '../../settings/settings-store.js';

const run = promisify(execFile);
const FRAME = 1 / 30;

/** Every file below `folder`, relative. */
async function filesBelow(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('ClipService', function () {
  this.timeout(120000);
  let world: MediaWorld;
  let folder: string;
  let events: RecordedEvents;
  let settings: SettingsStore;
  let library: ContentLibrary;
  let toolbox: FfmpegToolbox;
  let clips: ClipService;
  let first: ContentRecord;
  let second: ContentRecord;

  const ffmpeg = () => toolbox.requireFfmpeg('The test').ffmpeg.path;

  /** `max_volume` and `mean_volume` (dB) of one audio track. */
  async function loudness(file: string, track: number): Promise<{ max: number; mean: number }> {
    const { stderr } = await run(ffmpeg(), [
      '-hide_banner',
      '-nostats',
      '-i',
      file,
      '-map',
      `0:a:${track}`,
      '-af',
      'volumedetect',
      '-f',
      'null',
      '-',
    ]);
    const read = (key: string) => {
      const match = new RegExp(`${key}: (-?[\\d.]+|-inf) dB`).exec(stderr);
      return !match || match[1] === '-inf' ? Number.NEGATIVE_INFINITY : Number(match[1]);
    };
    return { max: read('max_volume'), mean: read('mean_volume') };
  }

  const segment = (item: ContentRecord, startTime: number, endTime: number, extra: Partial<Segment> = {}): Segment => ({
    id: Date.now() + Math.floor(Math.random() * 1e6),
    startTime,
    endTime,
    fileName: item.fileName,
    filePath: item.filePath,
    type: item.type,
    game: item.game,
    title: 'Ace',
    ...extra,
  });

  const progressOf = (id: number) => events.of('ClipProgress').filter((event) => event.id === id);
  const clipsOf = () => library.list().filter((item) => item.type === 'Clip');

  /** Creates the clip and waits for its job; returns its progress events and the new item. */
  async function makeClip(segments: Segment[]): Promise<{ progress: EventContent<'ClipProgress'>[]; item: ContentRecord | undefined }> {
    const before = new Set(clipsOf().map((item) => item.id));
    await clips.create(segments);
    await clips.idle();
    return { progress: progressOf(segments[0]!.id), item: clipsOf().find((item) => !before.has(item.id)) };
  }

  function expectMonotonicToHundred(progress: EventContent<'ClipProgress'>[]): void {
    const values = progress.map((event) => event.progress);
    expect(values[0]).to.equal(0);
    expect(values.at(-1)).to.equal(100);
    expect(values.filter((value) => value === 100)).to.have.length(1);
    for (let index = 1; index < values.length; index++) expect(values[index]).to.be.greaterThan(values[index - 1]!);
  }

  /** Decodes the whole file; ffmpeg's error output must stay empty. */
  async function expectPlays(file: string): Promise<void> {
    const { stderr } = await run(ffmpeg(), ['-v', 'error', '-i', file, '-map', '0', '-f', 'null', '-']);
    expect(stderr.trim()).to.equal('');
  }

  before(async () => {
    // The `low` clip preset at 30 fps: the sources' rate, so the fast path applies; every track kept.
    world = await createMediaWorld('keyframe-clips-', {
      clipFps: 30,
      clipPreset: 'ultrafast',
      clipQualityCpu: 28,
      clipAudioQuality: '96k',
      clipKeepSeparateAudioTracks: true,
    });
    ({ folder, events, settings, library, toolbox } = world);
    const games = path.join(settings.current.contentFolder, 'Full Sessions', 'Arena');
    await mkdir(games, { recursive: true });
    const tones = [440, 660, 880];
    await Promise.all([
      generateVideo(ffmpeg(), path.join(games, 'first.mp4'), { seconds: 8, tones }),
      generateVideo(ffmpeg(), path.join(games, 'second.mp4'), { seconds: 6, tones }),
    ]);
    const bookmark = (id: number, seconds: number) => ({ id, type: 'Kill' as const, seconds });
    first = await library.add({
      type: 'Session',
      filePath: path.join(games, 'first.mp4'),
      game: 'Arena',
      durationSeconds: 8,
      bookmarks: [bookmark(1, 2.5), bookmark(2, 7)],
    });
    second = await library.add({
      type: 'Session',
      filePath: path.join(games, 'second.mp4'),
      game: 'Arena',
      durationSeconds: 6,
      bookmarks: [bookmark(3, 1)],
    });
    clips = world.app.resolve(ClipService);
  });
  after(async () => {
    await world.dispose();
  });

  it('cuts one segment starting on a keyframe by stream copy, with its bookmarks re-based', async () => {
    const { progress, item } = await makeClip([segment(first, 2, 5)]);
    expectMonotonicToHundred(progress);
    expect(item).to.deep.include({ type: 'Clip', game: 'Arena', title: 'Ace', audioTrackNames: ['Track 1', 'Track 2', 'Track 3'] });
    expect(item!.filePath).to.match(/\/Videos\/Clips\/Arena\/\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d( \(\d+\))?\.mp4$/);
    expect(item!.bookmarks.map((bookmark) => [bookmark.id, bookmark.seconds])).to.deep.equal([[1, 0.5]]);
    const probed = await probeMedia(toolbox.requireFfmpeg('The test').ffprobe.path, item!.filePath);
    expect(probed.durationSeconds).to.be.closeTo(3, 1);
    expect(probed.streams.filter((stream) => stream.type === 'audio')).to.have.length(3);
    // Web-ready: its index comes before the media, in the room reserved for it.
    const { boxes, complete } = await readMp4Layout(item!.filePath);
    expect(complete).to.equal(true);
    expect(boxes.indexOf('moov')).to.be.within(0, boxes.indexOf('mdat'));
    await expectPlays(item!.filePath);
  });

  it('smart-cuts a segment starting between keyframes: the head re-encoded, the rest copied, joined and playable', async () => {
    const { progress, item } = await makeClip([segment(first, 1.5, 4.5)]);
    expectMonotonicToHundred(progress);
    // One scale over the head, the copied rest and the join: a step that starts over at 0 is not seen.
    expect(progress.length).to.be.greaterThan(2);
    const probed = await probeMedia(toolbox.requireFfmpeg('The test').ffprobe.path, item!.filePath);
    const video = probed.streams.find((stream) => stream.type === 'video')!;
    // Fast path: within one keyframe interval (it measures about two frames long, from the seam).
    expect(video.durationSeconds).to.be.closeTo(3, 1);
    expect(probed.durationSeconds).to.be.closeTo(3, 1);
    // Web-ready without a second pass: the join writes the index into room reserved at the front.
    const { boxes } = await readMp4Layout(item!.filePath);
    expect(boxes.indexOf('moov')).to.be.within(0, boxes.indexOf('mdat'));
    await expectPlays(item!.filePath);

    const joined = await makeClip([segment(first, 1.5, 4.5), segment(second, 0.5, 3.5)]);
    expectMonotonicToHundred(joined.progress);
    expect(joined.progress.length).to.be.greaterThan(2);
  });

  it('joins 3 segments of 2 files, re-encoded: muted track silent, volume applied, duration within a frame', async () => {
    const segments = [
      segment(first, 1.2, 3.2, { mutedAudioTracks: [1], audioTrackVolumes: { 2: 0.5 } }),
      segment(second, 0.5, 2.5, { mutedAudioTracks: [1], audioTrackVolumes: { 2: 0.5 } }),
      segment(first, 5, 6.5, { mutedAudioTracks: [1], audioTrackVolumes: { 2: 0.5 } }),
    ];
    const { progress, item } = await makeClip(segments);
    expectMonotonicToHundred(progress);
    expect(progress[0]!.segments).to.deep.equal(segments);
    const probed = await probeMedia(toolbox.requireFfmpeg('The test').ffprobe.path, item!.filePath);
    const video = probed.streams.find((stream) => stream.type === 'video')!;
    expect(video.durationSeconds).to.be.closeTo(5.5, FRAME + 0.001);
    expect(probed.durationSeconds).to.be.closeTo(5.5, 2 * FRAME);
    expect(item!.bookmarks.map((bookmark) => [bookmark.id, bookmark.seconds])).to.deep.equal([
      [1, 1.3],
      [3, 2.5],
    ]);
    expect((await loudness(item!.filePath, 1)).max).to.be.at.most(-80);
    const [before, after] = [await loudness(first.filePath, 2), await loudness(item!.filePath, 2)];
    expect(after.mean - before.mean).to.be.closeTo(20 * Math.log10(0.5), 1);
    const [fullBefore, fullAfter] = [await loudness(first.filePath, 0), await loudness(item!.filePath, 0)];
    expect(fullAfter.mean - fullBefore.mean).to.be.closeTo(0, 1);
    await expectPlays(item!.filePath);
  });

  it('with clipKeepSeparateAudioTracks off makes one track: the first as it is, or the unmuted parts mixed again', async () => {
    settings.replace({ ...settings.current, clipKeepSeparateAudioTracks: false });
    try {
      const copied = (await makeClip([segment(first, 2, 5)])).item!;
      const copiedTracks = (await probeMedia(toolbox.requireFfmpeg('The test').ffprobe.path, copied.filePath)).streams.filter(
        (stream) => stream.type === 'audio',
      );
      expect(copiedTracks.map((track) => track.title)).to.deep.equal(['Track 1']);
      expect(copied.audioTrackNames).to.equal(undefined);
      const [whole, copiedWhole] = [await loudness(first.filePath, 0), await loudness(copied.filePath, 0)];
      expect(copiedWhole.mean - whole.mean).to.be.closeTo(0, 1);

      // Track 1 muted: the mix is track 2 alone (the sources' tracks are tones of one loudness).
      const mixed = (await makeClip([segment(first, 1.2, 3.2, { mutedAudioTracks: [1] })])).item!;
      expect(
        (await probeMedia(toolbox.requireFfmpeg('The test').ffprobe.path, mixed.filePath)).streams.filter(
          (stream) => stream.type === 'audio',
        ),
      ).to.have.length(1);
      const [part, mixedTrack] = [await loudness(first.filePath, 2), await loudness(mixed.filePath, 0)];
      expect(mixedTrack.mean - part.mean).to.be.closeTo(0, 1);

      const silent = (await makeClip([segment(first, 1.2, 3.2, { mutedAudioTracks: [2], audioTrackVolumes: { 1: 0 } })])).item!;
      expect((await loudness(silent.filePath, 0)).max).to.be.at.most(-80);
    } finally {
      settings.replace({ ...settings.current, clipKeepSeparateAudioTracks: true });
    }
  });

  it('makes one clip per segment with OutputMode separate', async () => {
    const before = clipsOf().length;
    const segments = [segment(first, 0, 1), segment(second, 2, 3)];
    await clips.create(segments, 'separate');
    await clips.idle();
    expect(clipsOf().length - before).to.equal(2);
    for (const entry of segments) {
      expectMonotonicToHundred(progressOf(entry.id));
      expect(progressOf(entry.id).at(-1)).to.deep.include({ progress: 100, segments: [entry] });
    }
  });

  it('cancels a running job: ffmpeg killed, nothing left under the content folder, then progress 100 with no segments', async () => {
    const filesBefore = await filesBelow(settings.current.contentFolder);
    const itemsBefore = clipsOf().length;
    settings.replace({ ...settings.current, clipPreset: 'slower', clipQualityCpu: 10 });
    try {
      const clip = segment(first, 0.3, 8, { mutedAudioTracks: [0] });
      await clips.create([clip, segment(second, 0.3, 6)]);
      const deadline = Date.now() + 20000;
      while (!progressOf(clip.id).some((event) => event.progress > 0) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await clips.cancel(clip.id);
      const progress = progressOf(clip.id);
      expect(progress.at(-1)).to.deep.equal({ id: clip.id, progress: 100, segments: [] });
      expect(progress.slice(0, -1).every((event) => event.progress < 100)).to.equal(true);
      expect(await filesBelow(settings.current.contentFolder)).to.deep.equal(filesBefore);
      expect(clipsOf()).to.have.length(itemsBefore);
      await commandRejection(clips.cancel(clip.id), 'NotFound');
    } finally {
      settings.replace({ ...settings.current, clipPreset: 'ultrafast', clipQualityCpu: 28 });
    }
  });

  it('ends invalid segments with -1 and a reason: end before start, outside the video, unknown file', async () => {
    const cases: [Segment, RegExp][] = [
      [segment(first, 3, 2), /not after its start/],
      [segment(first, 3, 3), /not after its start/],
      [segment(first, 7, 20), /outside the video/],
      [segment(first, 9, 10), /outside the video/],
      [{ ...segment(first, 0, 1), fileName: 'nothing-here', filePath: undefined }, /no Session named "nothing-here"/],
    ];
    const filesBefore = await filesBelow(settings.current.contentFolder);
    for (const [entry, reason] of cases) {
      const { progress, item } = await makeClip([entry]);
      expect(item).to.equal(undefined);
      const last = progress.at(-1)!;
      expect(last).to.deep.include({ id: entry.id, progress: -1, segments: [entry] });
      expect(last.error).to.match(reason);
    }
    expect(await filesBelow(settings.current.contentFolder)).to.deep.equal(filesBefore);
  });

  it('refuses file paths outside the content folder before starting anything', async () => {
    const outside = path.join(folder, 'outside.mp4');
    await generateVideo(ffmpeg(), outside, { seconds: 1 });
    const sent = events.sent.length;
    for (const filePath of [outside, `${settings.current.contentFolder}/../outside.mp4`, '/etc/passwd', 'relative/first.mp4']) {
      await commandRejection(clips.create([segment(first, 0, 1, { filePath })]), 'NotAllowed');
    }
    expect(events.sent.length).to.equal(sent);
  });

  it('without ffmpeg, refuses the clip with a reason that names the clip and says how to fix it', async () => {
    const refusing = world.app.fresh(ClipService, [[FfmpegToolbox, await toolboxWithoutFfmpeg(folder)]]);
    const sent = events.sent.length;
    const refusal = await commandRejection(refusing.create([segment(first, 0, 1)]), 'Unavailable');
    expect(refusal.message)
      .to.match(/^Making the clip needs ffmpeg, which is not available: .*found none/)
      .and.match(/install ffmpeg/);
    expect(events.sent.length).to.equal(sent);
  });
});
