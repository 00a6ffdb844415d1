import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { CommandError } from '../protocol/refusal.js';
import { SyntheticCaptureSource, type CaptureRequest, type CaptureSource } from '../media/capture-source.js';
import type { FfmpegToolbox } from '../media/ffmpeg-toolbox.js';
import {
  commandRejection,
  createMediaWorld,
  createRecorder,
  FixedSources,
  type MediaWorld,
  RecordedEvents,
  toolboxWithoutFfmpeg,
} from '../testing/fixtures.js';
import { probeMedia } from '../media/probe.js';
import { formatDuration, parseDuration, type State } from '../protocol/index.js';
import type { Bookmark } from '../protocol/index.js';
import { ContentLibrary, type ContentRecord } from '../library/content-library.js';
import { FrameDemand } from './frame-demand.js';
import { RecorderService, type CurrentRecording } from './recorder-service.js';
import { failureTitle } from './stop-notice.js';
import { SettingsStore } from '../settings/settings-store.js';
import { StatePublisher } from '../state/state-publisher.js';

/** A synthetic source that ends by itself, as if the capture device went away. */
class EndingSource implements CaptureSource {
  readonly name = 'ending';
  constructor(private readonly seconds: number) {}
  inputs(format: CaptureRequest) {
    const inputs = new SyntheticCaptureSource().inputs(format);
    // Each input (the test pattern, the tone) is read for that long only: then ffmpeg ends by itself.
    return { ...inputs, args: inputs.args.flatMap((arg) => (arg === '-i' ? ['-t', String(this.seconds), arg] : [arg])) };
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Adds a bookmark to the running recording, as BookmarkService does; false without one. */
const addBookmark = (service: RecorderService, bookmark: Bookmark): boolean =>
  service.current?.addBookmark(bookmark, parseDuration(bookmark.time)!) ?? false;

describe('RecorderService', function () {
  this.timeout(30000);
  let folder: string;
  let events: RecordedEvents;
  let settings: SettingsStore;
  let state: StatePublisher;
  let library: ContentLibrary;
  let toolbox: FfmpegToolbox;
  let sources: FixedSources;
  let services: RecorderService[];

  const recorder = (source: CaptureSource = new SyntheticCaptureSource()) => {
    sources = new FixedSources(source);
    const service = createRecorder(world, { sources });
    services.push(service);
    return service;
  };

  let world: MediaWorld;

  beforeEach(async () => {
    world = await createMediaWorld('keyframe-recorder-', { resolution: '720p', frameRate: 30, crfValue: 28 });
    ({ folder, events, settings, state, library, toolbox } = world);
    services = [];
  });
  afterEach(async () => {
    await Promise.all(services.map((service) => service.shutdown()));
    await world.dispose();
  });

  it('records a Session: preRecording, recording, then a content item with the bookmarks', async () => {
    const service = recorder();
    expect(state.current.hasLoadedCaptureEngine).to.equal(true);
    const seen: string[] = [];
    const snapshots: State[] = [];
    const stopWatching = state.onChange((current) => snapshots.push(structuredClone(current)));
    let started: CurrentRecording | undefined;
    let stopped: [CurrentRecording, ContentRecord | undefined] | undefined;
    service.onStarted((recording) => {
      started = recording;
      seen.push('started');
    });
    service.onStopped((recording, item) => {
      stopped = [recording, item];
      seen.push('stopped');
    });

    const before = Date.now();
    await service.start({ game: 'Arena: Legends', exePath: 'C:\\Games\\Arena\\arena.exe', pid: 4242 });
    expect(snapshots[0]!.preRecording).to.deep.equal({
      game: 'Arena: Legends',
      status: 'Waiting to start',
      coverImageId: null,
      pid: 4242,
      exe: 'C:\\Games\\Arena\\arena.exe',
    });
    const recording = state.current.recording!;
    expect(state.current.preRecording).to.equal(null);
    expect(recording).to.deep.include({
      game: 'Arena: Legends',
      fileName: 'arena.exe',
      pid: 4242,
      exePath: 'C:/Games/Arena/arena.exe',
      isUsingGameHook: false,
      bookmarks: [],
      audioTrackNames: ['Full Mix'],
      endTime: null,
      duration: null,
      coverImageId: null,
    });
    expect(recording.filePath).to.match(/\/Videos\/Full Sessions\/Arena_ Legends\/\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.mp4$/);
    expect(started!.startedAt.getTime()).to.be.within(before, Date.now());
    expect(service.current).to.deep.include({ game: 'Arena: Legends', exePath: 'C:\\Games\\Arena\\arena.exe' });
    await commandRejection(service.start(), 'NotAllowed');

    await wait(1500);
    const bookmark = { id: 12, type: 'Kill' as const, subtype: 'Headshot', time: '00:00:01', aiRating: null };
    expect(addBookmark(service, bookmark)).to.equal(true);
    const running = service.current!;
    await wait(500);
    const item = await service.stop();
    stopWatching();

    expect(snapshots.some((snapshot) => snapshot.recording?.endTime && snapshot.recording.duration)).to.equal(true);
    expect(state.current.recording).to.equal(null);
    expect(service.current).to.equal(undefined);
    expect(seen).to.deep.equal(['started', 'stopped']);
    expect(stopped![1]).to.equal(item);
    expect(item).to.deep.include({
      type: 'Session',
      game: 'Arena: Legends',
      bookmarks: [{ id: 12, type: 'Kill', subtype: 'Headshot', seconds: 1 }],
      gameExePath: 'C:\\Games\\Arena\\arena.exe',
    });
    expect(item).to.not.have.property('audioTrackNames');
    expect(item!.filePath).to.equal(recording.filePath);
    expect(item!.durationSeconds).to.be.within(1.5, 3);
    expect(item!.recordedFrom!.getTime()).to.equal(started!.startedAt.getTime());
    expect(state.current.content.map((content) => content.id)).to.deep.equal([item!.id]);
    const probed = await probeMedia(toolbox.requireFfmpeg('The test').ffprobe.path, item!.filePath);
    expect(probed.streams.map((stream) => `${stream.type}:${stream.codec}:${stream.width ?? ''}`)).to.deep.equal([
      'video:h264:1280',
      'audio:aac:',
    ]);
    expect(await readdir(path.join(folder, 'cache', 'recordings'))).to.deep.equal([]);
    await commandRejection(service.stop(), 'NotAllowed');
    expect(running.addBookmark(bookmark, 1), 'a saved recording takes no more bookmarks').to.equal(false);
  });

  it("records separate audio tracks (track 0 the full mix) with the game's quality override", async () => {
    settings.replace({
      ...settings.current,
      enableSeparateAudioTracks: true,
      games: [
        {
          name: 'Arena: Legends',
          paths: [],
          record: true,
          qualityOverride: {
            preset: 'custom',
            resolution: '720p',
            frameRate: 24,
            rateControl: 'CRF',
            crfValue: 35,
            cqLevel: 20,
            bitrate: 10,
            minBitrate: 8,
            maxBitrate: 12,
            encoder: 'cpu',
            codec: null,
          },
        },
      ],
    });
    const service = recorder();
    await service.start({ game: 'Arena: Legends' });
    expect(state.current.recording!.audioTrackNames).to.deep.equal(['Full Mix', 'Test Tone']);
    await wait(1500);
    const item = (await service.stop())!;
    expect(item.audioTrackNames).to.deep.equal(['Full Mix', 'Test Tone']);
    const probed = await probeMedia(toolbox.requireFfmpeg('The test').ffprobe.path, item.filePath);
    expect(probed.streams.map((stream) => `${stream.type}:${stream.title ?? ''}`)).to.deep.equal([
      'video:',
      'audio:Full Mix',
      'audio:Test Tone',
    ]);
    // The override's 24 a second at most: frames an encode misses under load lower the average, never raise it.
    expect(probed.streams[0]!.frameRate).to.be.within(18, 24.01);
  });

  it('discards a session without bookmarks when the game says so, and keeps one with bookmarks', async () => {
    settings.replace({
      ...settings.current,
      games: [{ name: 'Quiet Game', paths: [], record: true, discardSessionsWithoutBookmarksOverride: true }],
    });
    const service = recorder();
    await service.start({ game: 'Quiet Game' });
    await wait(1000);
    expect(await service.stop()).to.equal(undefined);
    expect(library.list()).to.deep.equal([]);
    expect(await readdir(path.join(folder, 'cache', 'recordings'))).to.deep.equal([]);
    await service.start({ game: 'Quiet Game' });
    await wait(1000);
    addBookmark(service, { id: 1, type: 'Kill', subtype: null, time: '00:00:00.5', aiRating: null });
    expect((await service.stop())?.bookmarks).to.have.length(1);
    await service.start({ game: 'Manual' });
    await wait(1000);
    expect(await service.stop(), 'the global setting is off').to.not.equal(undefined);
  });

  it('keeps what was recorded and tells the user when ffmpeg ends on its own', async () => {
    const service = recorder(new EndingSource(1.5));
    const stopped = new Promise<ContentRecord | undefined>((resolve) => service.onStopped((_recording, item) => resolve(item)));
    await service.start();
    expect(state.current.recording).to.deep.include({ game: 'Manual Recording', fileName: 'Unknown', exePath: null, pid: null });
    const item = await stopped;
    expect(item).to.not.equal(undefined);
    expect(existsSync(item!.filePath)).to.equal(true);
    expect(item!.durationSeconds).to.be.within(1, 2);
    expect(state.current.recording).to.equal(null);
    const modal = events.of('ShowModal').at(-1)!;
    expect(modal).to.deep.include({ title: 'Recording stopped unexpectedly', type: 'error' });
    expect(modal.description).to.include(item!.filePath);
  });

  it('stops and keeps what was recorded when the folder of the recording is removed mid-way', async function () {
    if (process.platform !== 'linux') this.skip(); // elsewhere the folder cannot be removed while ffmpeg writes, or nothing can be copied
    const service = recorder();
    const stopped = new Promise<ContentRecord | undefined>((resolve) => service.onStopped((_recording, item) => resolve(item)));
    await service.start();
    await wait(3000);
    await rm(path.join(folder, 'cache', 'recordings'), { recursive: true, force: true });
    const item = await stopped;
    expect(item, 'the part recorded before the removal is kept').to.not.equal(undefined);
    expect(item!.durationSeconds).to.be.within(2, 6);
    const probed = await probeMedia(toolbox.requireFfmpeg('The test').ffprobe.path, item!.filePath);
    expect(probed.streams.map((stream) => stream.type)).to.deep.equal(['video', 'audio']);
    const modal = events.of('ShowModal').at(-1)!;
    expect(modal).to.deep.include({ title: 'Recording stopped: folder removed', type: 'error' });
    expect(modal.description).to.include(item!.filePath);
  });

  it('clears preRecording and refuses with the reason when ffmpeg cannot start', async () => {
    const broken: CaptureSource = {
      name: 'broken',
      inputs: () => ({ args: ['-f', 'lavfi', '-i', 'nosuchfilter'], video: '0:v', audioTracks: [] }),
    };
    const service = recorder(broken);
    await commandRejection(service.start(), 'Failed');
    expect(state.current.preRecording).to.equal(null);
    expect(state.current.recording).to.equal(null);
    expect(events.of('ShowModal').at(-1)).to.deep.include({ title: 'Recording failed', type: 'error' });
    expect(await readdir(path.join(folder, 'cache', 'recordings'))).to.deep.equal([]);
    sources.source = new SyntheticCaptureSource();
    await service.start();
    await service.shutdown();
    expect(library.list()).to.have.length(1);
  });

  it('without ffmpeg, refuses in the name of the recording, says how to fix it, and keeps nothing', async () => {
    const service = createRecorder(world, { toolbox: await toolboxWithoutFfmpeg(folder) });
    const refusal = await commandRejection(service.start(), 'Unavailable');
    expect(refusal.message).to.match(/^Recording needs ffmpeg, which is not available: .*install ffmpeg/);
    expect(events.of('ShowModal').at(-1)).to.deep.include({ title: 'Recording failed', type: 'error' });
    expect(state.current.preRecording).to.equal(null);
    expect(state.current.recording).to.equal(null);
  });
});

describe('RecorderService: replay buffer and preview', function () {
  this.timeout(30000);
  let folder: string;
  let events: RecordedEvents;
  let settings: SettingsStore;
  let state: StatePublisher;
  let library: ContentLibrary;
  let service: RecorderService;

  let world: MediaWorld;
  /** Where an integration that reads on-screen text says its game runs. */
  let frameDemand: FrameDemand;

  beforeEach(async () => {
    world = await createMediaWorld('keyframe-recorder-', {
      resolution: '720p',
      frameRate: 30,
      crfValue: 30,
      recordingMode: 'Hybrid',
      replayBufferDuration: 2,
    });
    ({ folder, events, settings, state, library } = world);
    frameDemand = new FrameDemand();
    service = createRecorder(world, { frameDemand });
  });
  afterEach(async () => {
    await service.shutdown();
    await world.dispose();
  });

  it('saves the last seconds with the bookmarks inside them, re-based to the replay', async () => {
    await commandRejection(service.saveReplayBuffer(), 'NotAllowed');
    await service.start();
    const startedAt = service.current!.startedAt.getTime();
    expect(service.current).to.deep.include({ recordingMode: 'Hybrid' });
    const bookmark = (id: number, seconds: number) => ({
      id,
      type: 'Kill' as const,
      subtype: null,
      time: formatDuration(seconds),
      aiRating: null,
    });
    addBookmark(service, bookmark(1, 0.5)); // before the saved span
    await wait(Math.max(0, startedAt + 4600 - Date.now()));
    addBookmark(service, bookmark(2, 4.5)); // in the segment being written (4-6 s): the save waits for it
    const item = await service.saveReplayBuffer();
    expect(item).to.deep.include({ type: 'Buffer', game: 'Manual Recording' });
    expect(item.filePath).to.match(/\/Videos\/Replay Buffers\/Manual Recording\/[^/]+\.mp4$/);
    expect(item.durationSeconds).to.be.within(1.9, 2.3);
    expect(item.bookmarks).to.deep.equal([{ id: 2, type: 'Kill', seconds: 0.5 }]);
    expect(item.recordedFrom!.getTime() - startedAt).to.equal(4000);
    expect(events.of('ReplayBufferSaveStarted')).to.deep.equal([{}]); // not for the refused save before the start
    expect(events.of('ReplayBufferSaved')).to.deep.equal([{}]);
    expect(existsSync(path.join(folder, 'cache', 'thumbnails', 'Replay Buffers', `${item.id}.jpeg`))).to.equal(true);
    expect(existsSync(path.join(folder, 'cache', 'waveforms', 'Replay Buffers', `${item.id}.peaks.json`))).to.equal(true);
    expect(state.current.recording).to.not.equal(null);

    const session = await service.stop();
    expect(session!.bookmarks.map((mark) => mark.id)).to.deep.equal([1, 2]);
    expect(
      library
        .list()
        .map((content) => content.type)
        .sort(),
    ).to.deep.equal(['Buffer', 'Session']);
    expect(await readdir(path.join(folder, 'cache', 'replay-buffer'))).to.deep.equal([]);
    expect((await readdir(path.join(folder, 'cache', 'thumbnails', 'Full Sessions'))).filter((name) => name.startsWith('.'))).to.deep.equal(
      [],
    );
  });

  it('gives on-screen text recognition full-detail frames of the same encode, 5 a second, timed from the recording start', async () => {
    expect(service.screenFrames).to.equal(undefined);
    frameDemand.want('textGame', 'Game textGame');
    await service.start();
    await wait(1500);
    const frame = service.screenFrames!.latest()!;
    expect({ width: frame.width, height: frame.height }).to.deep.equal({ width: 1280, height: 720 });
    expect(frame.data.length).to.equal(1280 * 720 * 3);
    expect(frame.timeMs % 200).to.equal(0);
    expect(frame.timeMs).to.be.within(600, 1600);
    await service.stop();
    expect(service.screenFrames).to.equal(undefined);
  });

  it('makes no frames for on-screen text when no integration reading it has its game running', async () => {
    await service.start();
    await wait(1000);
    expect(service.screenFrames).to.equal(undefined);
    expect(service.current).to.not.equal(undefined);
    await service.stop();
  });

  it('sends preview frames only while the preview is on and the previous event has left the socket', async () => {
    expect(() => service.togglePreview()).to.throw(CommandError);
    await service.start();
    expect(events.of('RecordingPreviewState')).to.deep.equal([{ enabled: false }]);
    await wait(500);
    expect(events.of('RecordingPreviewFrame')).to.deep.equal([]);
    expect(service.frames!.count).to.be.greaterThan(0);

    expect(service.togglePreview()).to.equal(true);
    await wait(1000);
    const frames = events.of('RecordingPreviewFrame');
    expect(frames.length).to.be.within(7, 12);
    expect(frames[0]!.jpegBase64.startsWith('/9j/')).to.equal(true);
    expect(frames[0]).to.deep.include({ width: 480, height: 270 });

    events.bufferedAmount = 1; // a slow frontend: nothing more is queued for it
    await wait(500);
    expect(events.of('RecordingPreviewFrame')).to.have.length(frames.length);
    events.bufferedAmount = 0;
    await wait(400);
    expect(events.of('RecordingPreviewFrame').length).to.be.greaterThan(frames.length);

    await service.stop();
    expect(events.of('RecordingPreviewState')).to.deep.equal([{ enabled: false }, { enabled: true }, { enabled: false }]);
    const sent = events.of('RecordingPreviewFrame').length;
    await wait(300);
    expect(events.of('RecordingPreviewFrame')).to.have.length(sent);
    expect(service.frames).to.equal(undefined);
  });

  it('keeps no session in Buffer mode', async () => {
    settings.replace({ ...settings.current, recordingMode: 'Buffer' });
    await service.start();
    expect(state.current.recording!.filePath).to.equal(null);
    expect(service.current!.contentFilePath).to.equal(undefined);
    await wait(500);
    expect(await service.stop()).to.equal(undefined);
    expect(library.list()).to.deep.equal([]);
    expect(existsSync(path.join(folder, 'cache', 'recordings'))).to.equal(false);
  });
});

/** The test pattern at half the frame rate asked for: a grabber that loses every other frame. */
class HalfRateSource implements CaptureSource {
  readonly name = 'half-rate';
  inputs(format: CaptureRequest) {
    return new SyntheticCaptureSource().inputs({ ...format, frameRate: format.frameRate / 2 });
  }
}

describe('RecorderService, an encode that cannot keep up', function () {
  this.timeout(30000);
  let world: MediaWorld;
  let service: RecorderService;

  beforeEach(async () => {
    world = await createMediaWorld('keyframe-overload-', { resolution: '720p', frameRate: 60, recordingMode: 'Session' });
    service = createRecorder(world, { sources: new FixedSources(new HalfRateSource()) });
  });
  afterEach(async () => {
    await service.shutdown();
    await world.dispose();
  });

  it('tells the user once, starts the next recordings a step lower, and drops that when the settings change', async () => {
    await service.start();
    const overloaded = new Promise<void>((resolve) =>
      service.events.on('encodeHealth', ({ verdict }) => (verdict.overloaded ? resolve() : undefined)),
    );
    await overloaded;
    expect(world.state.current.encodingHealth).to.deep.include({ overloaded: true, reason: 'frameRate', targetFrameRate: 60 });
    const next = { preset: 'ultrafast', frameRate: 30, resolution: '720p' };
    expect(world.state.current.encodingHealth!.nextStepDown).to.deep.equal(next);
    const notices = world.events.of('ShowModal');
    expect(notices.map((notice) => notice.title)).to.deep.equal(["Recording can't keep up"]);
    expect(notices[0]!.description).to.contain('frames a second reach the file instead of 60');
    await service.stop();

    await service.start();
    expect(service.current!.plan.steppedDown).to.deep.equal(next);
    expect(service.current!.settings.frameRate).to.equal(30);
    expect(world.state.current.encodingHealth).to.deep.include({ steppedDown: next, nextStepDown: null, targetFrameRate: 30 });
    await service.stop();

    world.settings.replace({ ...world.settings.current, frameRate: 48 });
    await service.start();
    expect(service.current!.plan.steppedDown, 'new settings, their own level').to.equal(undefined);
    expect(service.current!.settings.frameRate).to.equal(48);
    await service.stop();
  });
});

describe('failureTitle', () => {
  it('names the cause the user can act on from what ffmpeg said', () => {
    expect(failureTitle('av_interleaved_write_frame(): No space left on device')).to.equal('Recording stopped: out of disk space');
    expect(failureTitle('/videos/a.mp4: Permission denied')).to.equal('Recording stopped: cannot write to folder');
    expect(failureTitle('Error writing trailer: I/O error')).to.equal('Recording stopped: write error');
    expect(failureTitle('Error while opening encoder for output stream #0:0')).to.equal('Recording stopped: encoder error');
    expect(failureTitle('')).to.equal('Recording stopped unexpectedly');
  });
});
