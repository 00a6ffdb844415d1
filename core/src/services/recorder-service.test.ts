import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CommandError } from '../commands/command-error.js';
import { CaptureSources, SyntheticCaptureSource, type CaptureFormat, type CaptureSource } from '../media/capture-source.js';
import { FfmpegLocator } from '../media/ffmpeg-locator.js';
import { probeMedia } from '../media/probe.js';
import { parseDuration, type EventContent, type EventName, type State } from '../protocol/index.js';
import { ServiceOptions } from '../service-options.js';
import { Logger } from '../support/logger.js';
import type { EventSink } from '../transport/event-sink.js';
import { ContentLibrary, type ContentRecord } from './content-library.js';
import { Notifier } from './notifier.js';
import { RecorderService, type CurrentRecording } from './recorder-service.js';
import { SettingsStore } from './settings-store.js';
import { StateStore } from './state-store.js';

class RecordedEvents implements EventSink {
  readonly sent: { method: EventName; content: unknown }[] = [];
  readonly isConnected = true;
  send<E extends EventName>(method: E, content: EventContent<E>): void {
    this.sent.push({ method, content: structuredClone(content) });
  }
  of<E extends EventName>(method: E): EventContent<E>[] {
    return this.sent.filter((event) => event.method === method).map((event) => event.content as EventContent<E>);
  }
}

/** A synthetic source that ends by itself, as if the capture device went away. */
class EndingSource implements CaptureSource {
  readonly name = 'ending';
  constructor(private readonly seconds: number) {}
  inputs(format: CaptureFormat) {
    const inputs = new SyntheticCaptureSource().inputs(format);
    return { ...inputs, args: inputs.args.map((arg) => (/^(testsrc2|sine)=/.test(arg) ? `${arg}:duration=${this.seconds}` : arg)) };
  }
}

class FixedSources extends CaptureSources {
  constructor(public source: CaptureSource) {
    super(new Logger([]));
  }
  override select(): CaptureSource {
    return this.source;
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RecorderService', function () {
  this.timeout(30000);
  let folder: string;
  let events: RecordedEvents;
  let settings: SettingsStore;
  let state: StateStore;
  let library: ContentLibrary;
  let tools: FfmpegLocator;
  let sources: FixedSources;
  let services: RecorderService[];

  const recorder = (source: CaptureSource = new SyntheticCaptureSource()) => {
    const logger = new Logger([]);
    sources = new FixedSources(source);
    const service = new RecorderService(settings, state, library, new Notifier(events, logger), tools, sources, logger);
    services.push(service);
    return service;
  };

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-recorder-'));
    events = new RecordedEvents();
    const logger = new Logger([]);
    settings = new SettingsStore(new ServiceOptions(folder, 0, undefined, [], path.join(folder, 'Videos')), logger);
    await settings.load();
    settings.replace({ ...settings.current, resolution: '720p', frameRate: 30, crfValue: 28 });
    state = new StateStore(events);
    library = new ContentLibrary(settings, state, logger);
    await library.load();
    tools = new FfmpegLocator();
    services = [];
  });
  afterEach(async () => {
    await Promise.all(services.map((service) => service.shutdown()));
    state.dispose();
    await settings.flush();
    await rm(folder, { recursive: true, force: true });
  });

  it('records a Session: preRecording, recording, then a content item with the bookmarks', async () => {
    const service = recorder();
    expect(state.current.hasLoadedCaptureEngine).to.equal(true);
    const seen: string[] = [];
    const snapshots: State[] = [];
    const stopWatching = state.onChange((current) => snapshots.push(structuredClone(current)));
    let started: CurrentRecording | undefined;
    let stopped: [CurrentRecording, ContentRecord | undefined] | undefined;
    service.onStarted((recording) => { started = recording; seen.push('started'); });
    service.onStopped((recording, item) => { stopped = [recording, item]; seen.push('stopped'); });

    const before = Date.now();
    await service.start({ game: 'Arena: Legends', exePath: 'C:\\Games\\Arena\\arena.exe', pid: 4242 });
    expect(snapshots[0]!.preRecording).to.deep.equal({ game: 'Arena: Legends', status: 'Waiting to start', coverImageId: null, pid: 4242, exe: 'C:\\Games\\Arena\\arena.exe' });
    const recording = state.current.recording!;
    expect(state.current.preRecording).to.equal(null);
    expect(recording).to.deep.include({
      game: 'Arena: Legends', fileName: 'arena.exe', pid: 4242, exePath: 'C:/Games/Arena/arena.exe', isUsingGameHook: false,
      bookmarks: [], audioTrackNames: ['Full Mix'], endTime: null, duration: null, coverImageId: null,
    });
    expect(recording.filePath).to.match(/\/Videos\/Full Sessions\/Arena_ Legends\/\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.mp4$/);
    expect(started!.startedAt.getTime()).to.be.within(before, Date.now());
    expect(service.current).to.deep.include({ game: 'Arena: Legends', exePath: 'C:\\Games\\Arena\\arena.exe' });
    await expectRejection(service.start(), 'NotAllowed');

    await wait(1500);
    const bookmark = { id: 12, type: 'Kill' as const, subtype: 'Headshot', time: '00:00:01', aiRating: null };
    expect(service.addBookmark(bookmark)).to.equal(true);
    await wait(500);
    const item = await service.stop();
    stopWatching();

    expect(snapshots.some((snapshot) => snapshot.recording?.endTime && snapshot.recording.duration)).to.equal(true);
    expect(state.current.recording).to.equal(null);
    expect(service.current).to.equal(undefined);
    expect(seen).to.deep.equal(['started', 'stopped']);
    expect(stopped![1]).to.equal(item);
    expect(item).to.deep.include({ type: 'Session', game: 'Arena: Legends', bookmarks: [bookmark], gameExePath: 'C:\\Games\\Arena\\arena.exe', audioTrackNames: null });
    expect(item!.filePath).to.equal(recording.filePath);
    expect(parseDuration(item!.duration)).to.be.within(1.5, 3);
    expect(Date.parse(item!.recordedFrom!)).to.equal(started!.startedAt.getTime());
    expect(state.current.content.map((content) => content.id)).to.deep.equal([item!.id]);
    const probed = await probeMedia(tools.locate().ffprobe.path, item!.filePath);
    expect(probed.streams.map((stream) => `${stream.type}:${stream.codec}:${stream.width ?? ''}`)).to.deep.equal(['video:h264:1280', 'audio:aac:']);
    expect(await readdir(path.join(folder, 'cache', 'recordings'))).to.deep.equal([]);
    await expectRejection(service.stop(), 'NotAllowed');
    expect(service.addBookmark(bookmark)).to.equal(false);
  });

  it('keeps what was recorded and tells the user when ffmpeg ends on its own', async () => {
    const service = recorder(new EndingSource(1.5));
    const stopped = new Promise<ContentRecord | undefined>((resolve) => service.onStopped((_recording, item) => resolve(item)));
    await service.start();
    expect(state.current.recording).to.deep.include({ game: 'Manual Recording', fileName: 'Unknown', exePath: null, pid: null });
    const item = await stopped;
    expect(item).to.not.equal(undefined);
    expect(existsSync(item!.filePath)).to.equal(true);
    expect(parseDuration(item!.duration)).to.be.within(1, 2);
    expect(state.current.recording).to.equal(null);
    const modal = events.of('ShowModal').at(-1)!;
    expect(modal).to.deep.include({ title: 'Recording stopped unexpectedly', type: 'error' });
    expect(modal.description).to.include(item!.filePath);
  });

  it('clears preRecording and refuses with the reason when ffmpeg cannot start', async () => {
    const broken: CaptureSource = { name: 'broken', inputs: () => ({ args: ['-f', 'lavfi', '-i', 'nosuchfilter'], video: '0:v' }) };
    const service = recorder(broken);
    await expectRejection(service.start(), 'Failed');
    expect(state.current.preRecording).to.equal(null);
    expect(state.current.recording).to.equal(null);
    expect(events.of('ShowModal').at(-1)).to.deep.include({ title: 'Recording failed', type: 'error' });
    expect(await readdir(path.join(folder, 'cache', 'recordings'))).to.deep.equal([]);
    sources.source = new SyntheticCaptureSource();
    await service.start();
    await service.shutdown();
    expect(library.list()).to.have.length(1);
  });
});

async function expectRejection(promise: Promise<unknown>, code: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(CommandError);
    expect((error as CommandError).code).to.equal(code);
    return;
  }
  expect.fail(`expected a ${code} refusal`);
}
