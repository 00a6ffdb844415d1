// Records in the three modes: one ffmpeg encode from the capture source feeds the session file (a
// fragmented MP4 in the cache folder, playable after a crash, moved into the content folder with
// its metadata, thumbnail and waveform at stop), the replay-buffer segments, and the frames of the
// recording (the preview, and full-detail frames for on-screen text recognition). Saves the replay buffer on request.
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../protocol/refusal.js';
import { CaptureSources, type CaptureFormat, type CaptureRequest } from '../media/capture-source.js';
import { FfmpegToolbox, type FfmpegTools } from '../media/ffmpeg-toolbox.js';
import { FfmpegProcess, type FfmpegExit } from '../media/ffmpeg-process.js';
import { freePath, reserveFreePath } from '../media/move-file.js';
import { probeMedia, type ProbeResult } from '../media/probe.js';
import { FRAME_HEIGHT, FRAME_RATE, FRAME_WIDTH, FRAMES_PIPE, RecordingFrames, type RecordingFrame } from '../media/recording-frames.js';
import { SCREEN_FRAME_RATE, SCREEN_FRAMES_PIPE, ScreenFrames, screenFrameSize, type ScreenFrameSource } from '../feeds/screen-text/screen-frames.js';
import { chooseVideoCodec } from '../media/video-encoder.js';
import { concatSegments, ReplayBuffer, SEGMENT_SECONDS, type BufferSpan } from '../media/replay-buffer.js';
import { captureFormat, recordingEncodingArgs } from '../media/session-encoding.js';
import type { RecorderView } from '../sdk/game-integration.js';
import {
  formatDuration, formatLocalDateTime, toWirePath, type Bookmark, type Recording, type RecordingMode,
} from '../protocol/index.js';
import { copyDeletedOpenFile } from '../platform/deleted-file.js';
import { executableName } from '../platform/process-list.js';
import { Logger } from '../support/logger.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { ContentIngest, type ArtworkSources } from '../library/content-ingest.js';
import { fromWireBookmark } from '../library/content-item.js';
import { ContentLibrary, type ContentBookmark, type ContentRecord } from '../library/content-library.js';
import { effectiveRecordingSettings, type EffectiveRecordingSettings } from '../settings/effective-settings.js';
import { Notifier } from '../state/notifier.js';
import { SettingsStore } from '../settings/settings-store.js';
import { StateStore } from '../state/state-store.js';

export const MANUAL_RECORDING_GAME = 'Manual Recording';
/** From spawning ffmpeg to its first encoded frame; x264 start-up takes well under a second. */
const FIRST_FRAME_TIMEOUT_MS = 20_000;
/** How often a running recording checks that its file is still there. */
const OUTPUT_CHECK_MS = 2_000;
/** A save waits this long beyond one segment for the segment being written to close. */
const FLUSH_GRACE_MS = 5_000;

export interface StartRequest {
  /** The detected game; a manual recording when absent. */
  game?: string;
  exePath?: string;
  pid?: number;
}

export interface CurrentRecording {
  /** The instant the video's first frame shows; bookmark times are offsets from it. */
  startedAt: Date;
  game: string;
  exePath?: string;
  recordingMode: RecordingMode;
  /** Where the session video will be in the content folder once the recording stops; none in Buffer mode. */
  contentFilePath?: string;
}

export type StartedListener = (recording: CurrentRecording) => void;
export type StoppedListener = (recording: CurrentRecording, item: ContentRecord | undefined) => void;

/** Why a recording ended: asked to, ffmpeg ended on its own, or its file was removed (and maybe rescued). */
type StopCause = { kind: 'requested' } | { kind: 'failed'; exit: FfmpegExit } | { kind: 'vanished'; rescued: boolean };

/** The recording mode and replay-buffer limits in force for one recording. */
export interface RecordingPlan {
  mode: RecordingMode;
  bufferSeconds: number;
  bufferMaxMegabytes: number;
}

interface Session {
  readonly game: string;
  readonly request: StartRequest;
  readonly settings: EffectiveRecordingSettings;
  readonly plan: RecordingPlan;
  /** Settles when the recording runs (or failed to start). */
  started?: Promise<void>;
  process?: FfmpegProcess;
  tools?: FfmpegTools;
  /** Titles of the audio tracks, track 0 the full mix. */
  audioTrackNames?: string[];
  /** The session file being written (Session and Hybrid). */
  cacheFile?: string;
  /** The rolling segments (Buffer and Hybrid). */
  buffer?: ReplayBuffer;
  frames?: RecordingFrames;
  screenFrames?: ScreenFrames;
  preview: boolean;
  previewDropped: number;
  /** Replay saves run one after the other; this settles when the last one queued has. */
  saves: Promise<void>;
  info?: CurrentRecording;
  finishing?: Promise<ContentRecord | undefined>;
  outputCheck?: NodeJS.Timeout;
}

/** Also the read-only `Recorder` view that integrations get through the SDK. */
/**
 * Whether a recording starting now should carry frames for on-screen text recognition: an enabled
 * integration that reads on-screen text has its game running. They cost a share of a core, so a
 * recording nobody reads them from goes without.
 */
export type ScreenTextWanted = () => boolean;
export const SCREEN_TEXT_WANTED = Symbol('ScreenTextWanted');

@injectable()
export class RecorderService implements RecorderView {
  private session: Session | undefined;
  private readonly startedListeners = new Set<StartedListener>();
  private readonly stoppedListeners = new Set<StoppedListener>();
  private readonly logger: Logger;

  constructor(
    private readonly settings: SettingsStore,
    private readonly state: StateStore,
    private readonly library: ContentLibrary,
    private readonly notifier: Notifier,
    private readonly toolbox: FfmpegToolbox,
    private readonly captures: CaptureSources,
    private readonly ingest: ContentIngest,
    logger: Logger,
    @inject(EVENT_SINK) private readonly events: EventSink,
    @inject(SCREEN_TEXT_WANTED) private readonly screenTextWanted: ScreenTextWanted,
  ) {
    this.logger = logger.child('recorder');
  }

  /** The running recording, from its first frame until it is saved; undefined otherwise. */
  get current(): CurrentRecording | undefined {
    return this.session?.info;
  }

  /** The frames of the running recording (480x270, ~10 per second), for readers such as on-screen text recognition. */
  get frames(): RecordingFrames | undefined {
    return this.session?.info ? this.session.frames : undefined;
  }

  /** Full-detail frames of the running recording (5 per second), for on-screen text recognition. */
  get screenFrames(): ScreenFrameSource | undefined {
    return this.session?.info ? this.session.screenFrames : undefined;
  }

  onStarted(listener: StartedListener): () => void {
    this.startedListeners.add(listener);
    return () => this.startedListeners.delete(listener);
  }

  onStopped(listener: StoppedListener): () => void {
    this.stoppedListeners.add(listener);
    return () => this.stoppedListeners.delete(listener);
  }

  /** Starts recording; resolves once the first frame is encoded. Throws `CommandError`. */
  async start(request: StartRequest = {}): Promise<void> {
    const { recording, preRecording } = this.state.current;
    if (this.session || recording || preRecording) {
      throw new CommandError('NotAllowed', 'A recording is already in progress: stop it before starting a new one.');
    }
    const game = request.game?.trim() || MANUAL_RECORDING_GAME;
    const session: Session = {
      game, request, ...this.planFor(request, game),
      preview: false, previewDropped: 0, saves: Promise.resolve(),
    };
    this.session = session;
    this.state.update({
      preRecording: { game: session.game, status: 'Waiting to start', coverImageId: null, pid: request.pid ?? null, exe: request.exePath ?? null },
    });
    session.started = this.launch(session);
    await session.started;
  }

  /** Stops and saves the recording; resolves to the new content item (undefined if nothing could be kept, and in Buffer mode). */
  async stop(): Promise<ContentRecord | undefined> {
    const session = this.session;
    if (!session) throw new CommandError('NotAllowed', 'No recording is in progress.');
    if (!session.info) {
      // Still starting: stop it as soon as it runs; a failed start has already cleaned up.
      await session.started?.catch(() => undefined);
      if (this.session !== session || !session.info) return undefined;
    }
    return this.finish(session, { kind: 'requested' });
  }

  /** For the service's shutdown: an active recording is stopped and saved, never dropped. */
  async shutdown(): Promise<void> {
    const session = this.session;
    if (!session) return;
    this.logger.info('service stopping: saving the active recording');
    await session.started?.catch(() => undefined);
    if (this.session !== session || !session.info) return;
    await this.finish(session, { kind: 'requested' }).catch((error: unknown) => this.logger.error('recording not saved at shutdown', { error }));
  }

  /** Appends a bookmark to the active recording; false when there is none (or it is already saved). */
  addBookmark(bookmark: Bookmark): boolean {
    if (!this.session?.info || !this.state.current.recording) return false;
    this.state.update((state) => {
      state.recording?.bookmarks.push(bookmark);
    });
    return true;
  }

  /**
   * Switches the preview on or off and says so (`RecordingPreviewState`); resolves to the new
   * state. Refused without a running recording.
   */
  togglePreview(): boolean {
    const session = this.session;
    if (!session?.info || session.finishing) throw new CommandError('NotAllowed', 'The preview shows a running recording: start a recording first.');
    session.preview = !session.preview;
    this.events.send('RecordingPreviewState', { enabled: session.preview });
    this.logger.info('preview switched', { enabled: session.preview, framesDroppedSoFar: session.previewDropped });
    return session.preview;
  }

  /**
   * Saves the last `replayBufferDuration` seconds as a Buffer item and sends `ReplayBufferSaved`.
   * The segment that holds the moment of the request is included once ffmpeg closes it (at most
   * one segment, ~2 s, later), so that moment is in the file; the length is whole segments
   * (rounded up), less when less is buffered. Saves run one at a time, each into its own file.
   * Refused when no recording has a replay buffer.
   */
  async saveReplayBuffer(): Promise<ContentRecord> {
    const session = this.session;
    if (!session?.info || session.finishing) throw new CommandError('NotAllowed', 'No recording is in progress, so there is no replay buffer to save.');
    const buffer = session.buffer;
    if (!buffer) {
      throw new CommandError('NotAllowed', `This recording has no replay buffer (recording mode ${session.plan.mode}): choose Buffer or Hybrid to save replays.`);
    }
    const requestedAt = new Date();
    // The segment that holds this moment (not the one being written: the encoder's output lags the
    // capture by its look-ahead). Queued synchronously, so a stop that follows waits for this save.
    const until = Math.floor((requestedAt.getTime() - session.info.startedAt.getTime()) / 1000 / buffer.limits.segmentSeconds);
    this.logger.info('replay buffer save requested', { segment: until });
    const save = session.saves.then(() => this.saveBuffer(session, buffer, until, requestedAt));
    session.saves = save.then(() => undefined, () => undefined);
    return save;
  }

  private async saveBuffer(session: Session, buffer: ReplayBuffer, until: number, requestedAt: Date): Promise<ContentRecord> {
    const info = session.info!;
    const tools = session.tools!;
    const began = Date.now();
    try {
      const flushed = await buffer.waitUntilComplete(until, buffer.limits.segmentSeconds * 1000 + FLUSH_GRACE_MS);
      if (!flushed) this.logger.warn('the replay segment being written did not close in time: saving the segments before it', { segment: until });
      const waitedMs = Date.now() - began;
      const span = await buffer.take(session.plan.bufferSeconds, until);
      if (!span) throw new Error('Nothing has been buffered yet: try again in a few seconds.');
      let target = this.library.contentPath('Buffer', session.game, `${fileStamp(requestedAt)}.mp4`);
      // The artwork comes from the segments while they are joined: the save takes about as long as the join.
      const sources = segmentArtwork(span);
      const early = sources && this.ingest.prepareArtwork(sources, tools);
      const joinBegan = Date.now();
      try {
        target = await concatSegments({ ffmpegPath: tools.ffmpeg.path, segments: span.segments, target, audioTrackNames: session.audioTrackNames ?? [], logger: this.logger });
      } catch (error) {
        if (early) await this.ingest.discardArtwork(await early);
        throw error;
      } finally {
        span.release();
      }
      const joinMs = Date.now() - joinBegan;
      const probed = await probeMedia(tools.ffprobe.path, target);
      const durationSeconds = probed.durationSeconds ?? span.durationSeconds;
      const spanEnd = span.startSeconds + durationSeconds;
      const bookmarks = (this.state.current.recording?.bookmarks ?? []).map(fromWireBookmark).flatMap((bookmark) => {
        if (bookmark.seconds < span.startSeconds || bookmark.seconds > spanEnd) return [];
        return [{ ...bookmark, seconds: bookmark.seconds - span.startSeconds }];
      });
      const recordedFrom = new Date(info.startedAt.getTime() + span.startSeconds * 1000);
      const item = await this.ingest.add({
        file: target,
        type: 'Buffer',
        ownsFile: true,
        probed,
        ...(early ? { artwork: early } : {}),
        meta: {
          game: info.game,
          durationSeconds,
          bookmarks,
          createdAt: requestedAt,
          gameExePath: info.exePath ?? null,
          audioTrackNames: contentTrackNames(session),
          recordedFrom,
          recordedUntil: new Date(recordedFrom.getTime() + durationSeconds * 1000),
        },
        tools,
      });
      this.events.send('ReplayBufferSaved', {});
      this.logger.info('replay buffer saved', {
        id: item.id, file: target, segments: span.segments.length, from: span.startSeconds, duration: durationSeconds,
        bookmarks: bookmarks.length, waitedForSegmentMs: waitedMs, joinMs, tookMs: Date.now() - began,
      });
      return item;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error('replay buffer not saved', { error: message });
      this.notifier.showModal({ title: 'Replay Save Failed', description: `The replay buffer could not be saved: ${message}`, type: 'error' });
      throw new CommandError('Failed', `The replay buffer could not be saved: ${message}`);
    }
  }

  private async launch(session: Session): Promise<void> {
    try {
      const tools = this.toolbox.requireFfmpeg('Recording');
      const { settings } = session;
      const { mode } = session.plan;
      const format = captureFormat(settings.resolution, settings.frameRate, this.state.current.maxDisplayHeight);
      const source = this.captures.select();
      const inputs = source.inputs(captureRequest(format, settings));
      session.audioTrackNames = inputs.audioTracks.map((track) => track.name);
      const spawnedAt = new Date();
      const stamp = fileStamp(spawnedAt);
      let contentFilePath: string | undefined;
      if (mode !== 'Buffer') {
        const recordingsFolder = path.join(settings.cacheFolder, 'recordings');
        await mkdir(recordingsFolder, { recursive: true });
        session.cacheFile = await reserveFreePath(path.join(recordingsFolder, `${stamp}.mp4`));
        contentFilePath = await freePath(this.library.contentPath('Session', session.game, path.basename(session.cacheFile)));
      }
      if (mode !== 'Session') {
        const buffersFolder = path.join(settings.cacheFolder, 'replay-buffer');
        await this.removeStaleBuffers(buffersFolder);
        session.buffer = new ReplayBuffer(await freePath(path.join(buffersFolder, stamp)), {
          durationSeconds: session.plan.bufferSeconds,
          maxBytes: session.plan.bufferMaxMegabytes * 1024 * 1024,
          segmentSeconds: SEGMENT_SECONDS,
        }, this.logger);
        await session.buffer.prepare();
      }
      const frames = new RecordingFrames();
      const screenSize = screenFrameSize(inputs.captureSize ?? format);
      const screenFrames = this.screenTextWanted() ? new ScreenFrames(screenSize) : undefined;
      const process = FfmpegProcess.start({
        ffmpegPath: tools.ffmpeg.path,
        args: recordingEncodingArgs({
          inputs,
          video: { ...settings, ...format },
          codecs: this.toolbox.codecs,
          outputs: {
            ...(session.cacheFile ? { sessionPath: session.cacheFile } : {}),
            ...(session.buffer ? { buffer: { pattern: session.buffer.pattern, segmentSeconds: session.buffer.limits.segmentSeconds } } : {}),
            frames: { pipe: FRAMES_PIPE, width: FRAME_WIDTH, height: FRAME_HEIGHT, frameRate: FRAME_RATE },
            ...(screenFrames ? { screenFrames: { pipe: SCREEN_FRAMES_PIPE, ...screenSize, frameRate: SCREEN_FRAME_RATE } } : {}),
          },
        }),
        interactive: true,
        outputs: session.cacheFile ? [session.cacheFile] : [],
        outputPipe: true,
        extraOutputPipes: screenFrames ? 1 : 0,
        logger: this.logger,
      });
      Object.assign(session, { tools, process, frames, screenFrames });
      frames.follow(process.outputPipe!, (error) => this.logger.warn('recording frames: read failed', { error }));
      screenFrames?.follow(process.pipe(SCREEN_FRAMES_PIPE)!, (error) => this.logger.warn('screen frames: read failed', { error }));
      frames.onFrame((frame) => this.sendPreview(session, frame));
      void process.exited.then(() => session.buffer?.markEnded());
      session.buffer?.startPruning();
      this.logger.info('recording starting', {
        game: session.game, mode, source: source.name, ...format, codec: chooseVideoCodec(settings, this.toolbox.codecs).codec.internalEncoderId,
        rateControl: settings.rateControl, audioTracks: session.audioTrackNames, pid: process.pid,
        ...(session.cacheFile ? { file: session.cacheFile } : {}),
        ...(session.buffer ? { buffer: session.buffer.folder, bufferSeconds: session.plan.bufferSeconds, bufferMaxMegabytes: session.plan.bufferMaxMegabytes } : {}),
      });

      const startedAt = await firstFrame(process, frames, format.frameRate, spawnedAt);
      session.info = {
        startedAt,
        game: session.game,
        recordingMode: mode,
        ...(contentFilePath ? { contentFilePath } : {}),
        ...(session.request.exePath ? { exePath: session.request.exePath } : {}),
      };
      const recording: Recording = {
        startTime: formatLocalDateTime(startedAt),
        endTime: null,
        filePath: contentFilePath ? toWirePath(contentFilePath) : null,
        game: session.game,
        fileName: session.request.exePath ? executableName(session.request.exePath) : 'Unknown',
        pid: session.request.pid ?? null,
        isUsingGameHook: false,
        exePath: session.request.exePath ? toWirePath(session.request.exePath) : null,
        bookmarks: [],
        coverImageId: null,
        audioTrackNames: [...session.audioTrackNames],
        duration: null,
      };
      this.state.update({ preRecording: null, recording });
      this.events.send('RecordingPreviewState', { enabled: false });
      this.logger.info('recording started', { startTime: recording.startTime, mode });
      void process.exited.then((exit) => {
        if (!exit.stopRequested && this.session === session) void this.finish(session, { kind: 'failed', exit });
      });
      if (session.cacheFile) session.outputCheck = setInterval(() => void this.checkOutput(session), OUTPUT_CHECK_MS);
      this.emit(this.startedListeners, session.info);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error('recording could not start', { game: session.game, error: message });
      await session.process?.kill();
      if (session.cacheFile) await rm(session.cacheFile, { force: true }).catch(() => undefined);
      await session.buffer?.remove().catch(() => undefined);
      if (this.session === session) this.session = undefined;
      this.state.update({ preRecording: null });
      this.notifier.showModal({ title: 'Recording failed', description: `The recording could not start: ${message}`, type: 'error' });
      throw error instanceof CommandError ? error : new CommandError('Failed', `The recording could not start: ${message}`);
    }
  }

  /**
   * A frame goes to the frontend only while the preview is on and the previous event has left
   * the socket; otherwise it is dropped, never queued, so a slow frontend sees fewer frames
   * instead of older ones.
   */
  private sendPreview(session: Session, frame: RecordingFrame): void {
    if (!session.preview || session.finishing || !this.events.isConnected) return;
    if ((this.events.bufferedAmount ?? 0) > 0) {
      session.previewDropped++;
      return;
    }
    this.events.send('RecordingPreviewFrame', { jpegBase64: frame.jpeg.toString('base64'), width: frame.width, height: frame.height });
  }

  private finish(session: Session, cause: StopCause): Promise<ContentRecord | undefined> {
    clearInterval(session.outputCheck);
    session.finishing ??= this.save(session, cause);
    return session.finishing;
  }

  /**
   * The session file gone mid-recording (its folder deleted): ffmpeg would go on writing into a file
   * nobody can open. What it wrote so far is copied out while ffmpeg still holds it (where the
   * platform allows), then the recording stops and keeps that copy.
   */
  private async checkOutput(session: Session): Promise<void> {
    const file = session.cacheFile!;
    if (session.finishing || await stat(file).then(() => true, () => false)) return;
    clearInterval(session.outputCheck);
    this.logger.error('the recording file was removed while recording', { file });
    let rescued = false;
    try {
      rescued = await copyDeletedOpenFile(session.process!.pid!, file, file);
    } catch (error) {
      this.logger.error('the removed recording could not be copied', { file, error });
    }
    if (this.session === session) await this.finish(session, { kind: 'vanished', rescued });
  }

  private async save(session: Session, cause: StopCause): Promise<ContentRecord | undefined> {
    const info = session.info!;
    const endedAt = new Date();
    session.preview = false;
    this.events.send('RecordingPreviewState', { enabled: false });
    this.state.update((state) => {
      if (!state.recording) return;
      state.recording.endTime = formatLocalDateTime(endedAt);
      state.recording.duration = formatDuration((endedAt.getTime() - info.startedAt.getTime()) / 1000);
    });
    const exit = cause.kind === 'failed' ? cause.exit : await session.process!.stop();
    session.buffer?.markEnded();
    this.logger.info('recording ended', { cause: cause.kind, code: exit.code, signal: exit.signal, ...(exit.errorText ? { errorText: exit.errorText } : {}) });

    // Saves asked for before the stop still get their replay, now from closed segments.
    await session.saves;
    let item: ContentRecord | undefined;
    let saveError: string | undefined;
    if (session.cacheFile) {
      try {
        item = await this.keep(session, endedAt);
      } catch (error) {
        saveError = error instanceof Error ? error.message : String(error);
        this.logger.error('recording not saved as content', { file: session.cacheFile, error: saveError });
      }
    }
    await session.buffer?.remove().catch((error: unknown) => this.logger.warn('replay segments not removed', { folder: session.buffer?.folder, error }));
    this.session = undefined;
    this.state.update({ recording: null, preRecording: null });

    const saved = item ? `What was recorded until then was saved as ${item.filePath}.`
      : session.cacheFile ? 'Nothing could be saved.' : 'Replays saved before that are kept.';
    if (cause.kind === 'vanished') {
      this.notifier.showModal({
        title: 'Recording stopped: folder removed',
        description: `The folder the recording was written to (${path.dirname(session.cacheFile!)}) was removed while recording. ${saved}`,
        type: 'error',
      });
    } else if (cause.kind === 'failed') {
      this.notifier.showModal({
        title: failureTitle(exit.errorText),
        description: `${saved}${exit.errorText ? ` ffmpeg said: ${exit.errorText}` : ''}`,
        type: 'error',
      });
    } else if (saveError) {
      this.notifier.showModal({ title: 'Recording not saved', description: saveError, type: 'error' });
    }
    this.emit(this.stoppedListeners, info, item);
    return item;
  }

  /** Probes the cache file, moves it into the content folder and writes its metadata, thumbnail and waveform. */
  private async keep(session: Session, endedAt: Date): Promise<ContentRecord | undefined> {
    const cacheFile = session.cacheFile!;
    const info = session.info!;
    const size = await stat(cacheFile).then((file) => file.size, () => 0);
    if (size === 0) {
      await rm(cacheFile, { force: true });
      throw new Error('ffmpeg wrote nothing, so there is no video to keep.');
    }
    if (session.settings.discardSessionsWithoutBookmarks && (this.state.current.recording?.bookmarks.length ?? 0) === 0) {
      // The user's choice (globally or for this game): a session where nothing happened is not kept.
      await rm(cacheFile, { force: true });
      this.logger.info('session discarded: it has no bookmarks (discardSessionsWithoutBookmarks)', { file: cacheFile, game: info.game });
      return undefined;
    }
    let durationSeconds: number;
    let probed: ProbeResult;
    try {
      probed = await probeMedia(session.tools!.ffprobe.path, cacheFile);
      if (!probed.streams.some((stream) => stream.type === 'video')) throw new Error('it holds no video');
      durationSeconds = probed.durationSeconds ?? (endedAt.getTime() - info.startedAt.getTime()) / 1000;
    } catch (error) {
      throw new Error(`The recording ${cacheFile} cannot be read (${(error as Error).message}); it was left there.`);
    }

    const item = await this.ingest.add({
      file: cacheFile,
      moveTo: info.contentFilePath!,
      type: 'Session',
      probed,
      // Bookmarks that arrive while the item is added are kept too.
      liveBookmarks: (): ContentBookmark[] => (this.state.current.recording?.bookmarks ?? []).map(fromWireBookmark),
      meta: {
        game: info.game,
        durationSeconds,
        gameExePath: info.exePath ?? null,
        audioTrackNames: contentTrackNames(session),
        recordedFrom: info.startedAt,
        recordedUntil: new Date(info.startedAt.getTime() + durationSeconds * 1000),
      },
      tools: session.tools!,
    });
    this.logger.info('recording saved', { id: item.id, file: item.filePath, durationSeconds: item.durationSeconds, bookmarks: item.bookmarks.length });
    return item;
  }

  /**
   * The settings this recording keeps to its end: the global ones overlaid with the game's
   * `games[]` entry (quality and recording-mode overrides), and the mode and buffer limits from them.
   */
  private planFor(request: StartRequest, game: string): { settings: EffectiveRecordingSettings; plan: RecordingPlan } {
    const settings = effectiveRecordingSettings(
      this.settings.current,
      request.game ? { name: game, executablePath: request.exePath } : undefined,
      { maxDisplayHeight: this.state.current.maxDisplayHeight },
    );
    const plan = { mode: settings.recordingMode, bufferSeconds: settings.replayBufferDuration, bufferMaxMegabytes: settings.replayBufferMaxSize };
    return { settings, plan };
  }

  /** Segments left by a recording that ended with the process (a crash): the buffer is gone with it. */
  private async removeStaleBuffers(buffersFolder: string): Promise<void> {
    const names = await readdir(buffersFolder).catch(() => [] as string[]);
    for (const name of names) {
      await rm(path.join(buffersFolder, name), { recursive: true, force: true })
        .then(() => this.logger.info('stale replay segments removed', { folder: name }))
        .catch((error: unknown) => this.logger.warn('stale replay segments not removed', { folder: name, error }));
    }
  }

  private emit<A extends unknown[]>(listeners: Set<(...args: A) => void>, ...args: A): void {
    for (const listener of listeners) {
      try {
        listener(...args);
      } catch (error) {
        this.logger.error('recording listener failed', { error });
      }
    }
  }
}

/**
 * The moment the video's first frame was captured: when its small JPEG copy arrives (the frames
 * output needs no look-ahead, so that is within a few milliseconds of the capture), or, should a
 * progress report come first, that report's time minus the frames it counts.
 */
function firstFrame(process: FfmpegProcess, frames: RecordingFrames, frameRate: number, spawnedAt: Date): Promise<Date> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`ffmpeg produced no frame within ${FIRST_FRAME_TIMEOUT_MS / 1000} s`));
    }, FIRST_FRAME_TIMEOUT_MS);
    const started = (capturedAt: number) => {
      finish();
      resolve(new Date(Math.max(spawnedAt.getTime(), capturedAt)));
    };
    const stopProgress = process.onProgress((progress) => {
      if (progress.frame > 0) started(Date.now() - (progress.frame / frameRate) * 1000);
    });
    const stopFrames = frames.onFrame((frame) => started(frame.receivedAt.getTime()));
    const finish = () => {
      clearTimeout(timer);
      stopProgress();
      stopFrames();
    };
    void process.exited.then((exit) => {
      finish();
      reject(new Error(exit.errorText || `ffmpeg exited with code ${exit.code}`));
    });
  });
}

/** What the user reads first when ffmpeg ended on its own (mapping as in the reference, §6.7). */
export function failureTitle(errorText: string): string {
  if (/No space left on device|ENOSPC|disk full/i.test(errorText)) return 'Recording stopped: out of disk space';
  if (/Permission denied|Access is denied|Could not open|Unable to write|Read-only file system/i.test(errorText)) return 'Recording stopped: cannot write to folder';
  if (/Error writing|I\/O error/i.test(errorText)) return 'Recording stopped: write error';
  if (/encod|codec/i.test(errorText)) return 'Recording stopped: encoder error';
  return 'Recording stopped unexpectedly';
}

/**
 * A saved replay's artwork from its segments: the thumbnail from the middle one, the sound read
 * through the `concat:` protocol (MPEG-TS joins byte by byte). Undefined when a path holds the
 * protocol's separator: the artwork is then made from the saved file.
 */
function segmentArtwork(span: BufferSpan): ArtworkSources | undefined {
  const files = span.segments.map((segment) => segment.file);
  if (files.some((file) => file.includes('|'))) return undefined;
  return {
    // The middle segment starts on a keyframe: its first frame needs one picture decoded.
    picture: { video: files[Math.floor(files.length / 2)]! },
    sound: { video: `concat:${files.join('|')}`, audioStreams: 1, durationSeconds: span.durationSeconds },
  };
}

/** Track names are listed for multi-track files only (protocol-gaps §7.3): one track is the full mix. */
const contentTrackNames = (session: Session): string[] | null =>
  (session.audioTrackNames && session.audioTrackNames.length > 1 ? [...session.audioTrackNames] : null);

/**
 * What the capture source is asked for: the display and devices of the settings, the game's
 * volume override applied to what the speakers play (the game's sound).
 */
function captureRequest(format: CaptureFormat, settings: EffectiveRecordingSettings): CaptureRequest {
  const { inputDevices, gameVolume } = settings;
  // No device chosen records the default output; a volume override needs it named to apply.
  const outputDevices = settings.outputDevices.length > 0 || inputDevices.length > 0 || gameVolume === 1
    ? settings.outputDevices : [{ id: 'default', name: '', volume: 1 }];
  return {
    ...format,
    display: settings.selectedDisplay,
    inputDevices,
    outputDevices: outputDevices.map((device) => ({ ...device, volume: device.volume * gameVolume })),
    separateAudioTracks: settings.enableSeparateAudioTracks,
  };
}

/** `yyyy-MM-dd_HH-mm-ss` in local time, the name of a Session file. */
export function fileStamp(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}_${pad(date.getHours())}-${pad(date.getMinutes())}-${pad(date.getSeconds())}`;
}
