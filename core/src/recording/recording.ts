// One recording, Starting → Running → Finishing: its ffmpeg encode from the capture source, the files it
// writes (the session file, a fragmented MP4 in the cache folder playable after a crash; the replay-buffer
// segments), its frames and its bookmarks. The recorder service decides when one starts and stops; this
// class does the work in between and answers "is this file being recorded?".
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CaptureFormat, CaptureRequest, CaptureSources } from '../media/capture-source.js';
import { FfmpegProcess, type FfmpegExit } from '../media/ffmpeg-process.js';
import type { FfmpegToolbox, FfmpegTools } from '../media/ffmpeg-toolbox.js';
import { freePath, reserveFreePath } from '../media/move-file.js';
import { FRAME_HEIGHT, FRAME_RATE, FRAME_WIDTH, FRAMES_PIPE, RecordingFrames } from '../media/recording-frames.js';
import { ReplayBuffer, SEGMENT_SECONDS } from '../media/replay-buffer.js';
import { SCREEN_FRAME_RATE, SCREEN_FRAMES_PIPE, ScreenFrames, screenFrameSize } from '../feeds/screen-text/screen-frames.js';
import { captureFormat, recordingEncodingArgs } from '../media/session-encoding.js';
import { describeCapture, type CaptureDescription } from '../media/capture-in-use.js';
import { copyDeletedOpenFile } from '../platform/deleted-file.js';
import type { Bookmark, EncodeLevel, RecordingMode } from '../protocol/index.js';
import type { EffectiveRecordingSettings } from '../settings/effective-settings.js';
import type { Logger } from '../support/logger.js';
import type { TypedEvents } from '../support/typed-events.js';
import { samePath } from '../support/paths.js';
import { EncodeHealth, type EncodeHealthVerdict } from './encode-health.js';
import { encodeLevelOf } from './encode-step-down.js';
import type { Preview } from './preview.js';
import type { RecorderEvents } from './recorder-service.js';

/** From spawning ffmpeg to its first encoded frame; x264 start-up takes well under a second. */
const FIRST_FRAME_TIMEOUT_MS = 20_000;
/** How often a running recording checks that its file is still there. */
const OUTPUT_CHECK_MS = 2_000;
/** How often the measures of an encode that keeps up are passed on; a change of verdict goes at once. */
const HEALTH_REPORT_MS = 2_000;

export interface StartRequest {
  /** The detected game; a manual recording when absent. */
  game?: string;
  exePath?: string;
  pid?: number;
}

/** The recording mode and replay-buffer limits in force for one recording. */
export interface RecordingPlan {
  mode: RecordingMode;
  bufferSeconds: number;
  bufferMaxMegabytes: number;
  /** The lower level this recording runs at because an earlier one could not keep up (the settings carry its frame rate and resolution). */
  steppedDown?: EncodeLevel;
}

/** Why a recording ended: asked to, ffmpeg ended on its own, or its file was removed (and maybe rescued). */
export type StopCause = { kind: 'requested' } | { kind: 'failed'; exit: FfmpegExit } | { kind: 'vanished'; rescued: boolean };

/** A bookmark of this recording as the library keeps it, and its offset from the first frame in seconds. */
export interface RecordingBookmark {
  readonly bookmark: Bookmark;
  readonly seconds: number;
}

/** What a recording needs to launch, from the recorder service. */
export interface LaunchParts {
  toolbox: FfmpegToolbox;
  captures: CaptureSources;
  /** The tallest display, which caps the capture size. */
  maxDisplayHeight: number;
  /** Where the session video goes in the content folder (a free name is taken there). */
  contentPath(fileName: string): string;
  /** Full-detail frames for on-screen text recognition cost a share of a core: only when someone reads them (asked just before ffmpeg starts). */
  screenFramesWanted(): boolean;
}

/** What only a running (or finishing) recording has. */
interface Media {
  readonly process: FfmpegProcess;
  readonly tools: FfmpegTools;
  /** Titles of the audio tracks, track 0 the full mix. */
  readonly audioTrackNames: readonly string[];
  readonly frames: RecordingFrames;
  readonly screenFrames: ScreenFrames | undefined;
  /** What it really records with, and why (State `captureInUse`). */
  readonly capture: CaptureDescription;
}

export type RecordingStatus = 'starting' | 'running' | 'finishing';

/** A recording past its first frame: the one `RecorderService.current` shows. */
export type StartedRecording = Recording & { readonly startedAt: Date; readonly media: Media };

export class Recording {
  #status: RecordingStatus = 'starting';
  #startedAt: Date | undefined;
  #media: Media | undefined;
  #cacheFile: string | undefined;
  #contentFilePath: string | undefined;
  #buffer: ReplayBuffer | undefined;
  #outputCheck: NodeJS.Timeout | undefined;
  #level: EncodeLevel | undefined;
  #health: EncodeHealth | undefined;
  #saved = false;
  readonly #bookmarks: RecordingBookmark[] = [];
  /** Replay saves run one after the other; this settles when the last one queued has. */
  saves: Promise<void> = Promise.resolve();

  constructor(
    readonly game: string,
    readonly request: StartRequest,
    readonly settings: EffectiveRecordingSettings,
    readonly plan: RecordingPlan,
    /** Its live preview, off at the start. */
    readonly preview: Preview,
    private readonly events: TypedEvents<RecorderEvents>,
    private readonly logger: Logger,
  ) {}

  get status(): RecordingStatus {
    return this.#status;
  }

  /** The instant the video's first frame shows; bookmark times are offsets from it. Undefined while starting. */
  get startedAt(): Date | undefined {
    return this.#startedAt;
  }

  get media(): Media | undefined {
    return this.#media;
  }

  get exePath(): string | undefined {
    return this.request.exePath;
  }

  get recordingMode(): RecordingMode {
    return this.plan.mode;
  }

  /** Where the session video will be in the content folder once the recording stops; none in Buffer mode. */
  get contentFilePath(): string | undefined {
    return this.#contentFilePath;
  }

  /** The session file being written in the cache folder (Session and Hybrid). */
  get cacheFile(): string | undefined {
    return this.#cacheFile;
  }

  /** The rolling segments (Buffer and Hybrid). */
  get buffer(): ReplayBuffer | undefined {
    return this.#buffer;
  }

  /** The preset, frame rate and resolution the encode runs at; undefined while starting. */
  get level(): EncodeLevel | undefined {
    return this.#level;
  }

  /** Whether the encode keeps up with the clock; undefined while starting. */
  get encodeHealth(): EncodeHealthVerdict | undefined {
    return this.#health?.verdict;
  }

  get bookmarks(): readonly RecordingBookmark[] {
    return this.#bookmarks;
  }

  isStarted(): this is StartedRecording {
    return this.#startedAt !== undefined && this.#media !== undefined;
  }

  /** Whether `file` is this recording's video: the file being written, or the name it will have in the content folder. */
  isWriting(file: string): boolean {
    return [this.#cacheFile, this.#contentFilePath].some((own) => own !== undefined && samePath(own, file));
  }

  /** Appends a bookmark; false before the first frame and once the recording is saved (it may still come while its metadata is written). */
  addBookmark(bookmark: Bookmark, seconds: number): boolean {
    if (!this.isStarted() || this.#saved) return false;
    const entry = { bookmark, seconds };
    this.#bookmarks.push(entry);
    this.events.emit('bookmarkAdded', { recording: this, bookmark: entry });
    return true;
  }

  /** Removes a bookmark the user deleted while recording; false when this recording has none with that id. */
  removeBookmark(id: number): boolean {
    const index = this.#bookmarks.findIndex((entry) => entry.bookmark.id === id);
    if (index === -1 || !this.isStarted()) return false;
    this.#bookmarks.splice(index, 1);
    this.events.emit('bookmarkRemoved', { recording: this, id });
    return true;
  }

  /** Track names are listed for multi-track files only (protocol-gaps §7.3): one track is the full mix. */
  get contentTrackNames(): string[] | null {
    const names = this.#media?.audioTrackNames ?? [];
    return names.length > 1 ? [...names] : null;
  }

  /**
   * Launches ffmpeg and resolves at its first frame (Running). On failure everything it created is
   * removed and the error is thrown.
   */
  async start(parts: LaunchParts): Promise<void> {
    let process: FfmpegProcess | undefined;
    try {
      const tools = parts.toolbox.requireFfmpeg('Recording');
      const { settings, plan } = this;
      const format = captureFormat(settings.resolution, settings.frameRate, parts.maxDisplayHeight);
      const source = parts.captures.select();
      const stepped = plan.steppedDown?.preset;
      const video = { ...settings, ...format, ...(stepped ? { x264Preset: stepped } : {}) };
      const inputs = source.inputs({ ...captureRequest(format, settings), encoding: video });
      const capture = describeCapture(source.name, inputs.plan, settings, parts.toolbox.codecs);
      const spawnedAt = new Date();
      const stamp = fileStamp(spawnedAt);
      if (plan.mode !== 'Buffer') {
        const recordingsFolder = path.join(settings.cacheFolder, 'recordings');
        await mkdir(recordingsFolder, { recursive: true });
        this.#cacheFile = await reserveFreePath(path.join(recordingsFolder, `${stamp}.mp4`));
        this.#contentFilePath = await freePath(parts.contentPath(path.basename(this.#cacheFile)));
      }
      if (plan.mode !== 'Session') {
        const buffersFolder = path.join(settings.cacheFolder, 'replay-buffer');
        await this.removeStaleBuffers(buffersFolder);
        this.#buffer = new ReplayBuffer(
          await freePath(path.join(buffersFolder, stamp)),
          {
            durationSeconds: plan.bufferSeconds,
            maxBytes: plan.bufferMaxMegabytes * 1024 * 1024,
            segmentSeconds: SEGMENT_SECONDS,
          },
          this.logger,
        );
        await this.#buffer.prepare();
      }
      const buffer = this.#buffer;
      const frames = new RecordingFrames();
      const screenSize = screenFrameSize(inputs.captureSize ?? format);
      const screenFrames = parts.screenFramesWanted() ? new ScreenFrames(screenSize) : undefined;
      const args = recordingEncodingArgs({
        inputs,
        video,
        codecs: parts.toolbox.codecs,
        outputs: {
          ...(this.#cacheFile ? { sessionPath: this.#cacheFile } : {}),
          ...(buffer ? { buffer: { pattern: buffer.pattern, segmentSeconds: buffer.limits.segmentSeconds } } : {}),
          frames: { pipe: FRAMES_PIPE, width: FRAME_WIDTH, height: FRAME_HEIGHT, frameRate: FRAME_RATE },
          ...(screenFrames ? { screenFrames: { pipe: SCREEN_FRAMES_PIPE, ...screenSize, frameRate: SCREEN_FRAME_RATE } } : {}),
        },
      });
      this.#level = encodeLevelOf(args, capture.encoder, settings);
      process = FfmpegProcess.start({
        ffmpegPath: tools.ffmpeg.path,
        // The game comes first: the encode runs below normal priority (clip and export jobs, which the user waits for, do not).
        belowNormalPriority: true,
        args,
        interactive: true,
        outputs: this.#cacheFile ? [this.#cacheFile] : [],
        outputPipe: true,
        extraOutputPipes: screenFrames ? 1 : 0,
        logger: this.logger,
      });
      const audioTrackNames = inputs.audioTracks.map((track) => track.name);
      frames.follow(process.outputPipe!, (error) => this.logger.warn('recording frames: read failed', { error }));
      screenFrames?.follow(process.pipe(SCREEN_FRAMES_PIPE)!, (error) => this.logger.warn('screen frames: read failed', { error }));
      frames.onFrame((frame) => this.preview.offer(frame));
      void process.exited.then(() => buffer?.markEnded());
      buffer?.startPruning();
      this.logger.info('recording starting', {
        game: this.game,
        mode: plan.mode,
        source: source.name,
        ...format,
        codec: capture.encoder,
        capture: capture.reasons,
        ...(this.#level.preset ? { preset: this.#level.preset } : {}),
        ...(plan.steppedDown ? { steppedDown: true } : {}),
        rateControl: settings.rateControl,
        audioTracks: audioTrackNames,
        pid: process.pid,
        ...(this.#cacheFile ? { file: this.#cacheFile } : {}),
        ...(buffer ? { buffer: buffer.folder, bufferSeconds: plan.bufferSeconds, bufferMaxMegabytes: plan.bufferMaxMegabytes } : {}),
      });
      this.#startedAt = await firstFrame(process, frames, format.frameRate, spawnedAt);
      this.#media = { process, tools, audioTrackNames, frames, screenFrames, capture };
      this.#health = new EncodeHealth(format.frameRate);
      this.#status = 'running';
    } catch (error) {
      await process?.kill();
      if (this.#cacheFile) await rm(this.#cacheFile, { force: true }).catch(() => undefined);
      await this.#buffer?.remove().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Calls `vanished` when the session file is gone mid-recording (its folder deleted): ffmpeg would go on
   * writing into a file nobody can open. What it wrote so far is copied out first while ffmpeg still
   * holds it (where the platform allows); `vanished` is told whether that worked.
   */
  watchOutput(vanished: (rescued: boolean) => void): void {
    const file = this.#cacheFile;
    const pid = this.#media?.process.pid;
    if (!file || pid === undefined) return;
    this.#outputCheck = setInterval(() => {
      void (async () => {
        if (
          this.#status !== 'running' ||
          (await stat(file).then(
            () => true,
            () => false,
          ))
        )
          return;
        clearInterval(this.#outputCheck);
        this.logger.error('the recording file was removed while recording', { file });
        const rescued = await copyDeletedOpenFile(pid, file, file).catch((error: unknown) => {
          this.logger.error('the removed recording could not be copied', { file, error });
          return false;
        });
        vanished(rescued);
      })();
    }, OUTPUT_CHECK_MS);
  }

  /**
   * Follows how the encode keeps up: `changed` gets the verdict when it turns (overloaded or recovered)
   * and, while nothing turns, every few seconds with fresh measures.
   */
  watchEncode(changed: (verdict: EncodeHealthVerdict) => void): void {
    const health = this.#health;
    const process = this.#media?.process;
    if (!health || !process) return;
    let reportedAt = performance.now();
    const stop = process.onProgress((progress) => {
      const before = health.verdict;
      const now = performance.now();
      const verdict = health.observe(progress, now);
      if (this.#status !== 'running') {
        stop();
        return;
      }
      if (verdict.overloaded === before.overloaded && now - reportedAt < HEALTH_REPORT_MS) return;
      reportedAt = now;
      changed(verdict);
    });
  }

  /**
   * Finishing: stops ffmpeg (unless it already ended, `exit`), closes the buffer and waits for the replay
   * saves asked for before the stop (they still get their replay, now from closed segments).
   */
  async finish(exit?: FfmpegExit): Promise<FfmpegExit> {
    this.#status = 'finishing';
    clearInterval(this.#outputCheck);
    const ended = exit ?? (await this.#media!.process.stop());
    this.#buffer?.markEnded();
    await this.saves;
    return ended;
  }

  /** The recording is over and kept (or not): its replay segments go, and it takes no more bookmarks. */
  async close(): Promise<void> {
    this.#saved = true;
    await this.#buffer
      ?.remove()
      .catch((error: unknown) => this.logger.warn('replay segments not removed', { folder: this.#buffer?.folder, error }));
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

/**
 * What the capture source is asked for: the display and devices of the settings, the game's
 * volume override applied to what the speakers play (the game's sound).
 */
function captureRequest(format: CaptureFormat, settings: EffectiveRecordingSettings): CaptureRequest {
  return {
    ...format,
    display: settings.selectedDisplay,
    inputDevices: settings.inputDevices,
    outputDevices: settings.outputDevices,
    outputVolume: settings.gameVolume,
    separateAudioTracks: settings.enableSeparateAudioTracks,
  };
}

/** `yyyy-MM-dd_HH-mm-ss` in local time, the name of a Session file. */
export function fileStamp(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}_${pad(date.getHours())}-${pad(date.getMinutes())}-${pad(date.getSeconds())}`;
}
