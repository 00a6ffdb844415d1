// The recorder: at most one `Recording` at a time, and the policy around it — the settings it keeps to
// its end, when it may start, what happens when it ends (kept in the library, the user told why), and
// which domain events announce it (the State publisher turns them into `State`).
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../protocol/refusal.js';
import { describeEncodeLevel, type EncodeLevel, type Settings } from '../protocol/index.js';
import { CAPTURE_CAPABILITIES, CaptureSources, type CaptureCapabilitiesProvider } from '../media/capture-source.js';
import { FfmpegToolbox } from '../media/ffmpeg-toolbox.js';
import type { RecordingFrames } from '../media/recording-frames.js';
import type { ScreenFrameSource } from '../feeds/screen-text/screen-frames.js';
import type { RecorderView } from '../sdk/game-integration.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { ContentLibrary, type ContentRecord } from '../library/content-library.js';
import { effectiveRecordingSettings } from '../settings/effective-settings.js';
import { SettingsStore } from '../settings/settings-store.js';
import { Notifier } from '../notices/notifier.js';
import { Logger } from '../support/logger.js';
import { TypedEvents } from '../support/typed-events.js';
import { keepUpShare, type EncodeHealthVerdict } from './encode-health.js';
import { stepDown } from './encode-step-down.js';
import { FrameDemand } from './frame-demand.js';
import { overloadNotice } from './overload-notice.js';
import { Preview } from './preview.js';
import { Recording, type RecordingBookmark, type StartedRecording, type StartRequest, type StopCause } from './recording.js';
import { ReplaySaver } from './replay-saver.js';
import { SessionSaver } from './session-saver.js';
import { stopNotice } from './stop-notice.js';

export { fileStamp, type RecordingPlan, type StartRequest, type StartedRecording } from './recording.js';

export const MANUAL_RECORDING_GAME = 'Manual Recording';

/** What the recorder announces, in domain terms. */
export type RecorderEvents = {
  /** Asked to record; the first frame is not there yet. */
  starting: Recording;
  startFailed: Recording;
  started: StartedRecording;
  bookmarkAdded: { recording: StartedRecording; bookmark: RecordingBookmark };
  bookmarkRemoved: { recording: StartedRecording; id: number };
  /** How the running recording's encode keeps up; `nextStepDown`, once it could not, the level the next recordings start at. */
  encodeHealth: { recording: StartedRecording; verdict: EncodeHealthVerdict; nextStepDown: EncodeLevel | undefined };
  /** The recording settings changed: the next recordings start at the settings' level again. */
  stepDownDropped: undefined;
  /** The recording stopped at `endedAt` and is being kept. */
  ending: { recording: StartedRecording; endedAt: Date };
  /** Over: kept as `item`, or nothing kept. */
  stopped: { recording: StartedRecording; item: ContentRecord | undefined };
};

/** A change to one of these drops the lower level chosen after a recording could not keep up. */
const ENCODE_SETTINGS: readonly (keyof Settings)[] = [
  'resolution',
  'frameRate',
  'encoder',
  'codec',
  'rateControl',
  'bitrate',
  'minBitrate',
  'maxBitrate',
  'crfValue',
  'cqLevel',
  'videoQualityPreset',
  'games',
];

/** The lower level the next recordings start at, for recordings whose settings ask for `from`. */
interface StepDown {
  from: Pick<Settings, 'frameRate' | 'resolution'>;
  level: EncodeLevel;
}

export type CurrentRecording = StartedRecording;
export type StartedListener = (recording: StartedRecording) => void;
export type StoppedListener = (recording: StartedRecording, item: ContentRecord | undefined) => void;

@injectable()
export class RecorderService implements RecorderView {
  readonly events = new TypedEvents<RecorderEvents>();
  private recording: Recording | undefined;
  /** Settles when the current recording runs (or failed to start). */
  private starting: Promise<void> | undefined;
  private finishing: Promise<ContentRecord | undefined> | undefined;
  /** Kept for the service run, dropped when the recording settings change. */
  private stepDown: StepDown | undefined;
  private readonly logger: Logger;

  constructor(
    private readonly settings: SettingsStore,
    private readonly library: ContentLibrary,
    private readonly notifier: Notifier,
    private readonly toolbox: FfmpegToolbox,
    private readonly captures: CaptureSources,
    @inject(CAPTURE_CAPABILITIES) private readonly machine: CaptureCapabilitiesProvider,
    private readonly frameDemand: FrameDemand,
    private readonly replays: ReplaySaver,
    private readonly sessions: SessionSaver,
    logger: Logger,
    @inject(EVENT_SINK) private readonly sink: EventSink,
  ) {
    this.logger = logger.child('recorder');
    settings.onChange(() => {
      if (!this.stepDown) return;
      this.stepDown = undefined;
      this.logger.info('recording settings changed: the next recordings start at their level again');
      this.announce('stepDownDropped', undefined);
    }, ENCODE_SETTINGS);
  }

  /** The running recording, from its first frame until it is saved; undefined otherwise. */
  get current(): StartedRecording | undefined {
    return this.recording?.isStarted() ? this.recording : undefined;
  }

  /** A recording is starting, running or being saved. */
  get isRecording(): boolean {
    return this.recording !== undefined;
  }

  /** The frames of the running recording (480x270, ~10 per second), for readers such as on-screen text recognition. */
  get frames(): RecordingFrames | undefined {
    return this.current?.media.frames;
  }

  /** Full-detail frames of the running recording (5 per second), for on-screen text recognition. */
  get screenFrames(): ScreenFrameSource | undefined {
    return this.current?.media.screenFrames;
  }

  onStarted(listener: StartedListener): () => void {
    return this.events.on('started', listener);
  }

  onStopped(listener: StoppedListener): () => void {
    return this.events.on('stopped', ({ recording, item }) => listener(recording, item));
  }

  /** Starts recording; resolves once the first frame is encoded. Throws `CommandError`. */
  async start(request: StartRequest = {}): Promise<void> {
    if (this.recording) throw new CommandError('NotAllowed', 'A recording is already in progress: stop it before starting a new one.');
    const game = request.game?.trim() || MANUAL_RECORDING_GAME;
    // The settings this recording keeps to its end: the global ones overlaid with the game's `games[]` entry.
    const requested = effectiveRecordingSettings(
      this.settings.current,
      request.game ? { name: game, executablePath: request.exePath } : undefined,
      { maxDisplayHeight: this.machine.maxDisplayHeight },
    );
    const steppedDown = this.stepDownFor(requested);
    const settings = steppedDown
      ? { ...requested, frameRate: steppedDown.frameRate, resolution: steppedDown.resolution as Settings['resolution'] }
      : requested;
    const plan = {
      mode: settings.recordingMode,
      bufferSeconds: settings.replayBufferDuration,
      bufferMaxMegabytes: settings.replayBufferMaxSize,
      ...(steppedDown ? { steppedDown } : {}),
    };
    const recording = new Recording(game, request, settings, plan, new Preview(this.sink, this.logger), this.events, this.logger);
    this.recording = recording;
    this.finishing = undefined;
    this.announce('starting', recording);
    this.starting = this.launch(recording);
    await this.starting;
  }

  /** Stops and saves the recording; resolves to the new content item (undefined if nothing could be kept, and in Buffer mode). */
  async stop(): Promise<ContentRecord | undefined> {
    const recording = this.recording;
    if (!recording) throw new CommandError('NotAllowed', 'No recording is in progress.');
    return this.stopStarted(recording);
  }

  /** For the service's shutdown: an active recording is stopped and saved, never dropped. */
  async shutdown(): Promise<void> {
    if (!this.recording) return;
    this.logger.info('service stopping: saving the active recording');
    await this.stopStarted(this.recording).catch((error: unknown) => this.logger.error('recording not saved at shutdown', { error }));
  }

  /** Switches the preview on or off and says so (`RecordingPreviewState`); refused without a running recording. */
  togglePreview(): boolean {
    const recording = this.current;
    if (recording?.status !== 'running')
      throw new CommandError('NotAllowed', 'The preview shows a running recording: start a recording first.');
    return recording.preview.toggle();
  }

  /** Saves the replay buffer as a Buffer item (see `ReplaySaver`); refused when no recording has one. */
  async saveReplayBuffer(): Promise<ContentRecord> {
    const recording = this.current;
    if (recording?.status !== 'running')
      throw new CommandError('NotAllowed', 'No recording is in progress, so there is no replay buffer to save.');
    if (!recording.buffer) {
      throw new CommandError(
        'NotAllowed',
        `This recording has no replay buffer (recording mode ${recording.plan.mode}): choose Buffer or Hybrid to save replays.`,
      );
    }
    return this.replays.save(recording, recording.buffer);
  }

  private async launch(recording: Recording): Promise<void> {
    try {
      await recording.start({
        toolbox: this.toolbox,
        captures: this.captures,
        maxDisplayHeight: this.machine.maxDisplayHeight,
        contentPath: (fileName) => this.library.contentPath('Session', recording.game, fileName),
        screenFramesWanted: () => this.frameDemand.screenFramesWanted,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error('recording could not start', { game: recording.game, error: message });
      if (this.recording === recording) this.recording = undefined;
      this.announce('startFailed', recording);
      this.notifier.showModal({ title: 'Recording failed', description: `The recording could not start: ${message}`, type: 'error' });
      throw error instanceof CommandError ? error : new CommandError('Failed', `The recording could not start: ${message}`);
    }
    if (!recording.isStarted()) return;
    recording.preview.announceOff();
    this.logger.info('recording started', { startedAt: recording.startedAt, mode: recording.plan.mode });
    void recording.media.process.exited.then((exit) => {
      if (!exit.stopRequested && this.recording === recording) void this.finish(recording, { kind: 'failed', exit });
    });
    recording.watchOutput((rescued) => {
      if (this.recording === recording) void this.finish(recording, { kind: 'vanished', rescued });
    });
    this.followEncode(recording);
    this.announce('started', recording);
  }

  /** The encode's health goes to State; the first overload of a recording is told (`overloaded`), later turns logged. */
  private followEncode(recording: StartedRecording): void {
    let told = false;
    let wasOverloaded = false;
    let nextStepDown: EncodeLevel | undefined;
    recording.watchEncode((verdict) => {
      if (this.recording !== recording) return;
      if (verdict.overloaded && !told) {
        told = true;
        nextStepDown = this.overloaded(recording, verdict);
      } else if (told && verdict.overloaded !== wasOverloaded) {
        this.logger.info(verdict.overloaded ? 'the recording cannot keep up again' : 'the recording keeps up again', { ...verdict });
      }
      wasOverloaded = verdict.overloaded;
      this.announce('encodeHealth', { recording, verdict, nextStepDown });
    });
  }

  /** The level a recording at `settings` starts at when an earlier one at the same settings could not keep up. */
  private stepDownFor(settings: Pick<Settings, 'frameRate' | 'resolution'>): EncodeLevel | undefined {
    const from = this.stepDown?.from;
    return from?.frameRate === settings.frameRate && from.resolution === settings.resolution ? this.stepDown!.level : undefined;
  }

  /** Once a recording: the user is told, and the next recordings start a step lower (the ladder of `stepDown`). */
  private overloaded(recording: StartedRecording, verdict: EncodeHealthVerdict): EncodeLevel | undefined {
    const level = recording.level!;
    const next = stepDown(level, keepUpShare(verdict));
    if (next) {
      // A recording already stepped down keeps the settings it stands in for.
      const from = recording.plan.steppedDown && this.stepDown ? this.stepDown.from : recording.settings;
      this.stepDown = { from: { frameRate: from.frameRate, resolution: from.resolution }, level: next };
    }
    this.logger.warn('the recording cannot keep up', {
      reason: verdict.reason,
      speed: verdict.speed,
      framesPerSecond: verdict.framesPerSecond,
      targetFrameRate: verdict.targetFrameRate,
      droppedFrames: verdict.droppedFrames,
      level: describeEncodeLevel(level),
      nextRecordings: next ? describeEncodeLevel(next) : 'unchanged (the lowest level)',
    });
    this.notifier.showModal(overloadNotice(verdict, level, next));
    return next;
  }

  /** A recording still starting is stopped as soon as it runs; a failed start has already cleaned up. */
  private async stopStarted(recording: Recording): Promise<ContentRecord | undefined> {
    await this.starting?.catch(() => undefined);
    if (this.recording !== recording || !recording.isStarted()) return undefined;
    return this.finish(recording, { kind: 'requested' });
  }

  private finish(recording: StartedRecording, cause: StopCause): Promise<ContentRecord | undefined> {
    this.finishing ??= this.save(recording, cause);
    return this.finishing;
  }

  private async save(recording: StartedRecording, cause: StopCause): Promise<ContentRecord | undefined> {
    const endedAt = new Date();
    recording.preview.announceOff(true);
    this.announce('ending', { recording, endedAt });
    const exit = await recording.finish(cause.kind === 'failed' ? cause.exit : undefined);
    this.logger.info('recording ended', {
      cause: cause.kind,
      code: exit.code,
      signal: exit.signal,
      ...(exit.errorText ? { errorText: exit.errorText } : {}),
    });

    let item: ContentRecord | undefined;
    let saveError: string | undefined;
    const { cacheFile, contentFilePath } = recording;
    if (cacheFile && contentFilePath) {
      try {
        item = await this.sessions.keep(recording, cacheFile, contentFilePath, endedAt);
      } catch (error) {
        saveError = error instanceof Error ? error.message : String(error);
        this.logger.error('recording not saved as content', { file: cacheFile, error: saveError });
      }
    }
    await recording.close();
    this.recording = undefined;

    const notice = stopNotice(cause, exit, { item, saveError, cacheFile });
    if (notice) this.notifier.showModal(notice);
    this.announce('stopped', { recording, item });
    return item;
  }

  /** A listener that fails is logged; the recording goes on. */
  private announce<Name extends keyof RecorderEvents>(name: Name, payload: RecorderEvents[Name]): void {
    try {
      this.events.emit(name, payload);
    } catch (error) {
      this.logger.error('recording listener failed', { event: name, error });
    }
  }
}
