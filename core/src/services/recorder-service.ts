// Records Sessions: one ffmpeg encode from the capture source into a fragmented MP4 in the cache
// folder (playable after a crash), moved into the content folder with its metadata at stop.
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { injectable } from 'tsyringe';
import { CommandError } from '../commands/command-error.js';
import { CaptureSources } from '../media/capture-source.js';
import { FfmpegLocator, type FfmpegTools } from '../media/ffmpeg-locator.js';
import { FfmpegProcess, type FfmpegExit } from '../media/ffmpeg-process.js';
import { freePath, moveFile } from '../media/move-file.js';
import { probeMedia } from '../media/probe.js';
import { captureFormat, sessionEncodingArgs } from '../media/session-encoding.js';
import type { RecorderView } from '../plugins/game-integration.js';
import { formatDuration, formatLocalDateTime, type Bookmark, type Recording } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { ContentLibrary, type ContentRecord } from './content-library.js';
import { Notifier } from './notifier.js';
import { toWirePath } from './settings-service.js';
import { SettingsStore } from './settings-store.js';
import { StateStore } from './state-store.js';

export const MANUAL_RECORDING_GAME = 'Manual Recording';
/** The one audio track of this version: everything mixed. */
export const AUDIO_TRACK_NAMES = ['Full Mix'];
/** From spawning ffmpeg to its first encoded frame; x264 start-up takes well under a second. */
const FIRST_FRAME_TIMEOUT_MS = 20_000;

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
  /** Where the video will be in the content folder once the recording stops. */
  contentFilePath: string;
}

export type StartedListener = (recording: CurrentRecording) => void;
export type StoppedListener = (recording: CurrentRecording, item: ContentRecord | undefined) => void;

type StopCause = { kind: 'requested' } | { kind: 'failed'; exit: FfmpegExit };

interface Session {
  readonly game: string;
  readonly request: StartRequest;
  /** Settles when the recording runs (or failed to start). */
  started?: Promise<void>;
  process?: FfmpegProcess;
  tools?: FfmpegTools;
  cacheFile?: string;
  info?: CurrentRecording;
  finishing?: Promise<ContentRecord | undefined>;
}

/** Also the read-only `Recorder` view that integrations get through the SDK. */
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
    private readonly locator: FfmpegLocator,
    private readonly captures: CaptureSources,
    logger: Logger,
  ) {
    this.logger = logger.child('recorder');
    this.checkTools();
  }

  /** The running recording, from its first frame until it is saved; undefined otherwise. */
  get current(): CurrentRecording | undefined {
    return this.session?.info;
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
    const session: Session = { game: request.game?.trim() || MANUAL_RECORDING_GAME, request };
    this.session = session;
    this.state.update({
      preRecording: { game: session.game, status: 'Waiting to start', coverImageId: null, pid: request.pid ?? null, exe: request.exePath ?? null },
    });
    session.started = this.launch(session);
    await session.started;
  }

  /** Stops and saves the recording; resolves to the new content item (undefined if nothing could be kept). */
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

  private async launch(session: Session): Promise<void> {
    try {
      const tools = this.locator.locate();
      const settings = this.settings.current;
      const format = captureFormat(settings.resolution, settings.frameRate, this.state.current.maxDisplayHeight);
      const source = this.captures.select();
      const spawnedAt = new Date();
      const recordingsFolder = path.join(settings.cacheFolder, 'recordings');
      await mkdir(recordingsFolder, { recursive: true });
      const cacheFile = await freePath(path.join(recordingsFolder, `${fileStamp(spawnedAt)}.mp4`));
      const contentFilePath = await freePath(this.library.contentPath('Session', session.game, path.basename(cacheFile)));
      const process = FfmpegProcess.start({
        ffmpegPath: tools.ffmpeg.path,
        args: sessionEncodingArgs({ inputs: source.inputs(format), format, crf: settings.crfValue, outputPath: cacheFile }),
        interactive: true,
        outputs: [cacheFile],
        logger: this.logger,
      });
      Object.assign(session, { tools, process, cacheFile });
      this.logger.info('recording starting', { game: session.game, source: source.name, ...format, crf: settings.crfValue, file: cacheFile, pid: process.pid });

      const startedAt = await firstFrame(process, format.frameRate, spawnedAt);
      session.info = {
        startedAt,
        game: session.game,
        contentFilePath,
        ...(session.request.exePath ? { exePath: session.request.exePath } : {}),
      };
      const recording: Recording = {
        startTime: formatLocalDateTime(startedAt),
        endTime: null,
        filePath: toWirePath(contentFilePath),
        game: session.game,
        fileName: session.request.exePath ? fileNameOf(session.request.exePath) : 'Unknown',
        pid: session.request.pid ?? null,
        isUsingGameHook: false,
        exePath: session.request.exePath ? toWirePath(session.request.exePath) : null,
        bookmarks: [],
        coverImageId: null,
        audioTrackNames: [...AUDIO_TRACK_NAMES],
        duration: null,
      };
      this.state.update({ preRecording: null, recording });
      this.logger.info('recording started', { startTime: recording.startTime, file: cacheFile });
      void process.exited.then((exit) => {
        if (!exit.stopRequested && this.session === session) void this.finish(session, { kind: 'failed', exit });
      });
      this.emit(this.startedListeners, session.info);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error('recording could not start', { game: session.game, error: message });
      await session.process?.kill();
      if (session.cacheFile) await rm(session.cacheFile, { force: true }).catch(() => undefined);
      if (this.session === session) this.session = undefined;
      this.state.update({ preRecording: null });
      this.notifier.showModal({ title: 'Recording failed', description: `The recording could not start: ${message}`, type: 'error' });
      throw new CommandError('Failed', `The recording could not start: ${message}`);
    }
  }

  private finish(session: Session, cause: StopCause): Promise<ContentRecord | undefined> {
    session.finishing ??= this.save(session, cause);
    return session.finishing;
  }

  private async save(session: Session, cause: StopCause): Promise<ContentRecord | undefined> {
    const info = session.info!;
    const endedAt = new Date();
    this.state.update((state) => {
      if (!state.recording) return;
      state.recording.endTime = formatLocalDateTime(endedAt);
      state.recording.duration = formatDuration((endedAt.getTime() - info.startedAt.getTime()) / 1000);
    });
    const exit = cause.kind === 'failed' ? cause.exit : await session.process!.stop();
    this.logger.info('recording ended', { cause: cause.kind, code: exit.code, signal: exit.signal, ...(exit.errorText ? { errorText: exit.errorText } : {}) });

    let item: ContentRecord | undefined;
    let saveError: string | undefined;
    try {
      item = await this.keep(session, endedAt);
    } catch (error) {
      saveError = error instanceof Error ? error.message : String(error);
      this.logger.error('recording not saved as content', { file: session.cacheFile, error: saveError });
    }
    this.session = undefined;
    this.state.update({ recording: null, preRecording: null });

    if (cause.kind === 'failed') {
      const saved = item ? `What was recorded until then was saved as ${item.filePath}.` : 'Nothing could be saved.';
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

  /** Probes the cache file, moves it into the content folder and writes its metadata. */
  private async keep(session: Session, endedAt: Date): Promise<ContentRecord | undefined> {
    const cacheFile = session.cacheFile!;
    const info = session.info!;
    const size = await stat(cacheFile).then((file) => file.size, () => 0);
    if (size === 0) {
      await rm(cacheFile, { force: true });
      throw new Error('ffmpeg wrote nothing, so there is no video to keep.');
    }
    let durationSeconds: number;
    try {
      const probed = await probeMedia(session.tools!.ffprobe.path, cacheFile);
      if (!probed.streams.some((stream) => stream.type === 'video')) throw new Error('it holds no video');
      durationSeconds = probed.durationSeconds ?? (endedAt.getTime() - info.startedAt.getTime()) / 1000;
    } catch (error) {
      throw new Error(`The recording ${cacheFile} cannot be read (${(error as Error).message}); it was left there.`);
    }

    const filePath = await moveFile(cacheFile, info.contentFilePath);
    const bookmarks = (): Bookmark[] => [...(this.state.current.recording?.bookmarks ?? [])];
    let saved = bookmarks();
    let item = await this.library.add({
      type: 'Session',
      filePath,
      game: info.game,
      durationSeconds,
      bookmarks: saved,
      gameExePath: info.exePath ?? null,
      // One track is the full mix; names are listed for multi-track files only (protocol-gaps §7.3).
      audioTrackNames: null,
      recordedFrom: info.startedAt,
      recordedUntil: new Date(info.startedAt.getTime() + durationSeconds * 1000),
    });
    // Bookmarks that arrived while the metadata was written.
    while (bookmarks().length > saved.length) {
      saved = bookmarks();
      item = await this.library.update(item.id, { bookmarks: saved });
    }
    this.logger.info('recording saved', { id: item.id, file: filePath, duration: item.duration, bookmarks: saved.length });
    return item;
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

  /** The capture engine counts as loaded once we know whether ffmpeg is there (the UI waits for it). */
  private checkTools(): void {
    try {
      const tools = this.locator.locate();
      this.logger.info('ffmpeg found', { ffmpeg: tools.ffmpeg, ffprobe: tools.ffprobe });
    } catch (error) {
      this.logger.error('ffmpeg not found: recording is unavailable', { error: (error as Error).message });
      this.notifier.showModal({ title: 'Recording is not available', description: (error as Error).message, type: 'error' });
    }
    this.state.update({ hasLoadedCaptureEngine: true });
  }
}

/**
 * The moment the video's first frame was captured: the first progress report that counts frames,
 * minus the time those frames span (the output position lags behind by the encoder's look-ahead).
 */
function firstFrame(process: FfmpegProcess, frameRate: number, spawnedAt: Date): Promise<Date> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`ffmpeg produced no frame within ${FIRST_FRAME_TIMEOUT_MS / 1000} s`));
    }, FIRST_FRAME_TIMEOUT_MS);
    const unsubscribe = process.onProgress((progress) => {
      if (progress.frame <= 0) return;
      finish();
      resolve(new Date(Math.max(spawnedAt.getTime(), Date.now() - (progress.frame / frameRate) * 1000)));
    });
    const finish = () => {
      clearTimeout(timer);
      unsubscribe();
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

/** `yyyy-MM-dd_HH-mm-ss` in local time, the name of a Session file. */
export function fileStamp(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}_${pad(date.getHours())}-${pad(date.getMinutes())}-${pad(date.getSeconds())}`;
}

/** The last part of a Windows or POSIX path. */
const fileNameOf = (exePath: string) => exePath.split(/[\\/]/).pop() || exePath;
