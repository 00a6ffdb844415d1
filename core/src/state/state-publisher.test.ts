import 'reflect-metadata';
import { expect } from 'chai';
import type { MachineCapabilityEvents, SystemDevices } from '../capabilities/machine-capabilities.js';
import type { ContentRecord, LibraryEvents } from '../library/content-library.js';
import type { FfmpegBuild } from '../media/ffmpeg-toolbox.js';
import type { EventContent, EventName, IntegrationHealth, IntegrationPackage, Settings, State } from '../protocol/index.js';
import type { EventSink } from '../protocol/event-sink.js';
import type { RecorderEvents } from '../recording/recorder-service.js';
import type { Recording, StartedRecording } from '../recording/recording.js';
import type { StorageEvents } from '../storage/storage-monitor.js';
import { TypedEvents } from '../support/typed-events.js';
import { STATE_BURST_MS, StatePublisher } from './state-publisher.js';

class CountingSink implements EventSink {
  readonly isConnected = true;
  readonly times: number[] = [];
  readonly states: State[] = [];
  send<E extends EventName>(method: E, content: EventContent<E>): void {
    this.times.push(Date.now());
    if (method === 'State') this.states.push(structuredClone(content as State));
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** After the setImmediate that sends a lone change. */
const sent = () => new Promise((resolve) => setImmediate(resolve));

/** A recording past its first frame, as the recorder's events carry it (only what State shows of it). */
function startedRecording(bookmarks: StartedRecording['bookmarks'] = []): StartedRecording {
  const recording = {
    game: 'Arena',
    request: { game: 'Arena', exePath: 'C:\\Games\\arena.exe', pid: 7 },
    startedAt: new Date('2026-11-22T10:00:00Z'),
    contentFilePath: '/videos/Full Sessions/Arena/a.mp4',
    bookmarks,
    media: { audioTrackNames: ['Full Mix'] },
  };
  return recording as unknown as StartedRecording;
}

describe('StatePublisher', () => {
  let sink: CountingSink;
  let publisher: StatePublisher;
  beforeEach(() => {
    sink = new CountingSink();
    publisher = new StatePublisher(sink);
  });
  afterEach(() => publisher.dispose());

  it('sends a lone change at once and coalesces a burst into at most one State per 50 ms', async () => {
    const start = Date.now();
    publisher.update({ currentFolderSizeGb: 1 });
    await wait(5);
    expect(sink.times).to.have.length(1);
    expect(sink.times[0]! - start).to.be.below(STATE_BURST_MS);

    for (let index = 0; index < 100; index++) publisher.update({ currentFolderSizeGb: index });
    await wait(STATE_BURST_MS * 2 + 20);
    expect(sink.times).to.have.length(2);
    expect(sink.times[1]! - sink.times[0]!).to.be.at.least(STATE_BURST_MS - 2);
    expect(publisher.current.currentFolderSizeGb).to.equal(99);
  });

  it('sends a prompt change (a recording started, a bookmark) at once even inside a burst, with the burst so far', async () => {
    publisher.update({ currentFolderSizeGb: 1 });
    await sent();
    publisher.update({ currentFolderSizeGb: 2 });
    publisher.update({ recordingDriveFreeGb: 3 }, 'prompt');
    await sent();
    expect(sink.states.map(({ currentFolderSizeGb, recordingDriveFreeGb }) => [currentFolderSizeGb, recordingDriveFreeGb])).to.deep.equal([
      [1, null],
      [2, 3],
    ]);
    publisher.update({ currentFolderSizeGb: 4 }); // back to bursts: this one waits for the window
    await sent();
    expect(sink.states).to.have.length(2);
    await wait(STATE_BURST_MS + 20);
    expect(sink.states).to.have.length(3);
  });

  it('sendNow sends the current State at once and cancels the coalesced send it replaces', async () => {
    publisher.update({ currentFolderSizeGb: 1 });
    publisher.sendNow();
    expect(sink.states.map((state) => state.currentFolderSizeGb)).to.deep.equal([1]);
    await wait(STATE_BURST_MS + 20);
    expect(sink.states).to.have.length(1);
  });

  it('projects a recording: preRecording, recording, bookmarks, its end, and nothing once stopped', async () => {
    const events = new TypedEvents<RecorderEvents>();
    const stop = publisher.follow({ recorder: { events } });
    const recording = startedRecording();
    events.emit('starting', recording as Recording);
    expect(publisher.current.preRecording).to.deep.equal({
      game: 'Arena',
      status: 'Waiting to start',
      coverImageId: null,
      pid: 7,
      exe: 'C:\\Games\\arena.exe',
    });
    events.emit('started', recording);
    expect(publisher.current.preRecording).to.equal(null);
    expect(publisher.current.recording).to.deep.include({
      game: 'Arena',
      fileName: 'arena.exe',
      pid: 7,
      exePath: 'C:/Games/arena.exe',
      filePath: '/videos/Full Sessions/Arena/a.mp4',
      isUsingGameHook: false,
      bookmarks: [],
      audioTrackNames: ['Full Mix'],
      endTime: null,
      duration: null,
      coverImageId: null,
    });
    const bookmark = { id: 3, type: 'Kill' as const, subtype: null, time: '00:00:05', aiRating: null };
    events.emit('bookmarkAdded', { recording, bookmark: { bookmark, seconds: 5 } });
    expect(publisher.current.recording!.bookmarks).to.deep.equal([bookmark]);
    events.emit('bookmarkRemoved', { recording, id: 3 });
    expect(publisher.current.recording!.bookmarks).to.deep.equal([]);
    events.emit('ending', { recording, endedAt: new Date('2026-11-22T10:01:30.5Z') });
    expect(publisher.current.recording!.duration).to.equal('00:01:30.5000000');
    expect(publisher.current.recording!.endTime).to.be.a('string');
    events.emit('stopped', { recording, item: undefined });
    expect(publisher.current.recording).to.equal(null);
    await sent();
    expect(sink.states.length).to.be.within(1, 2);

    events.emit('startFailed', recording as Recording);
    events.emit('starting', recording as Recording);
    expect(publisher.current.preRecording).to.not.equal(null);
    events.emit('startFailed', recording as Recording);
    expect(publisher.current.preRecording).to.equal(null);
    stop();
    events.emit('starting', recording as Recording);
    expect(publisher.current.preRecording, 'no longer followed').to.equal(null);
  });

  it('projects the library without the fields only the service needs', () => {
    const events = new TypedEvents<LibraryEvents>();
    publisher.follow({ library: { events } });
    const record: ContentRecord = {
      id: 'a'.repeat(32),
      type: 'Session',
      title: '',
      game: 'Arena',
      bookmarks: [],
      fileName: 'a',
      filePath: '/videos/a.mp4',
      durationSeconds: 90,
      createdAt: new Date('2026-11-22T10:00:00Z'),
      isImported: false,
      compressed: false,
      gameExePath: 'C:/Games/arena.exe',
      recordedFrom: new Date('2026-11-22T10:00:00Z'),
    };
    events.emit('changed', [record]);
    expect(publisher.current.content).to.have.length(1);
    expect(publisher.current.content[0]).to.deep.include({ id: 'a'.repeat(32), game: 'Arena', duration: '00:01:30' });
    expect(publisher.current.content[0]).to.not.have.property('recordedFrom');
    expect(publisher.current.content[0]).to.not.have.property('gameExePath');
  });

  it("projects the machine's capabilities, the update check, the disk figures and the integrations' health, sending nothing for an unchanged one", async () => {
    const capabilities = new TypedEvents<MachineCapabilityEvents>();
    const updater = new TypedEvents<{ checking: boolean }>();
    const storage = new TypedEvents<StorageEvents>();
    const integrations = new TypedEvents<{ health: Record<string, IntegrationHealth>; packages: IntegrationPackage[] }>();
    publisher.follow({
      capabilities: { events: capabilities, nextCapture: () => null },
      updater: { events: updater },
      storage: { events: storage },
      integrations: { events: integrations },
    });

    const devices: SystemDevices = {
      displays: [{ deviceName: 'HDMI-1', deviceId: 'HDMI-1', isPrimary: true, isHdr: false, width: 2560, height: 1440, x: 0, y: 0 }],
      audio: { inputs: [], outputs: [] },
      gpu: { vendor: 'Nvidia', computeCapability: 8.6 },
    } as unknown as SystemDevices;
    const build = { version: '7.1', path: '/opt/ffmpeg/bin/ffmpeg' } as FfmpegBuild;
    capabilities.emit('loaded', {
      devices,
      codecs: [{ friendlyName: 'x264', internalEncoderId: 'libx264', isHardwareEncoder: false }],
      builds: [build],
      captureEngine: { source: 'path', path: build.path, version: '7.1', missing: [] },
    });
    expect(publisher.current.captureEngine).to.deep.equal({ source: 'path', path: '/opt/ffmpeg/bin/ffmpeg', version: '7.1', missing: [] });
    expect(publisher.current).to.deep.include({
      maxDisplayHeight: 1440,
      gpuVendor: 'Nvidia',
      gpuComputeCapability: 8.6,
      hasLoadedCaptureEngine: true,
    });
    expect(publisher.current.displays).to.deep.equal([{ deviceName: 'HDMI-1', deviceId: 'HDMI-1', isPrimary: true, isHdr: false }]);
    expect(publisher.current.codecs.map((codec) => codec.internalEncoderId)).to.deep.equal(['libx264']);
    expect(publisher.current.availableCaptureEngineVersions[0]).to.deep.include({ version: '7.1', url: 'file:///opt/ffmpeg/bin/ffmpeg' });

    updater.emit('checking', true);
    expect(publisher.current.isCheckingForUpdates).to.equal(true);
    updater.emit('checking', false);
    expect(publisher.current.isCheckingForUpdates).to.equal(false);

    const health: Record<string, IntegrationHealth> = {
      arena: { displayName: 'Arena', status: 'idle', message: 'Ready', lastEventAt: null },
    };
    integrations.emit('health', health);
    expect(publisher.current.integrations).to.deep.equal(health);
    const packages: IntegrationPackage[] = [
      {
        packageName: 'racing',
        version: '0.2.0',
        folder: '/p/racing',
        status: 'refused',
        reason: 'needs Keyframe ^0.2.0; this is 0.1.0',
        warnings: [],
      },
    ];
    integrations.emit('packages', packages);
    expect(publisher.current.integrationPackages).to.deep.equal(packages);

    storage.emit('measured', { folderBytes: 1.5 * 1024 ** 3, drive: { usedBytes: 10 * 1024 ** 3, freeBytes: 20 * 1024 ** 3 } });
    expect(publisher.current).to.deep.include({ currentFolderSizeGb: 1.5, recordingDriveUsedGb: 10, recordingDriveFreeGb: 20 });
    await wait(STATE_BURST_MS + 20);
    const states = sink.states.length;
    storage.emit('measured', { folderBytes: 1.5 * 1024 ** 3, drive: { usedBytes: 10 * 1024 ** 3, freeBytes: 20 * 1024 ** 3 } });
    integrations.emit('health', structuredClone(health));
    integrations.emit('packages', structuredClone(packages));
    await wait(STATE_BURST_MS + 20);
    expect(sink.states, 'the same figures and health again').to.have.length(states);
    storage.emit('measured', { folderBytes: 0, drive: undefined });
    expect(publisher.current).to.deep.include({ currentFolderSizeGb: 0, recordingDriveUsedGb: null, recordingDriveFreeGb: null });
  });

  it("shows the settings' cache folder with forward slashes, at once and after each change of it", () => {
    let listener: ((settings: Readonly<Settings>) => void) | undefined;
    let followed: readonly (keyof Settings)[] | undefined;
    const settings = {
      current: { cacheFolder: 'C:\\Keyframe\\cache' } as Settings,
      onChange: (next: (settings: Readonly<Settings>) => void, fields?: readonly (keyof Settings)[]) => {
        listener = next;
        followed = fields;
        return () => {
          listener = undefined;
        };
      },
    };
    const stop = publisher.follow({ settings });
    expect(publisher.current.cacheFolder).to.equal('C:/Keyframe/cache');
    expect(followed, 'woken by a change of the cache folder only').to.deep.equal(['cacheFolder']);
    listener!({ cacheFolder: 'D:\\cache' } as Settings);
    expect(publisher.current.cacheFolder).to.equal('D:/cache');
    stop();
    expect(listener).to.equal(undefined);
  });
});
