// Clip jobs (`CreateClip`, `CancelClip`): segments of library videos joined into a Clip item, by
// stream copy where the cut points allow it, else re-encoded in the clip quality preset. Jobs run one
// at a time; each reports `ClipProgress` and writes its file under a temporary name.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../commands/command-error.js';
import {
  allowsCopy, chooseClipEncoder, concatList, copyArgs, encodeArgs, headArgs, joinArgs, parseKeyframes, planCut,
  type ClipPiece, type ClipQuality, type ClipSource,
} from '../media/clip-encoding.js';
import { CaptureEngine, CaptureEngineUnavailableError, type EngineTools } from '../media/capture-engine.js';
import { FfmpegProcess } from '../media/ffmpeg-process.js';
import { percentOf, produceInto } from '../media/job-output.js';
import { freePath } from '../media/move-file.js';
import { probeMedia } from '../media/probe.js';
import { formatDuration, parseDuration, type Bookmark, type CommandParameters, type Segment } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { EVENT_SINK, type EventSink } from '../transport/event-sink.js';
import { ContentArtwork } from './content-artwork.js';
import { ContentLibrary, type ContentRecord } from './content-library.js';
import { ContentLocator } from './content-locator.js';
import { fileStamp } from './recorder-service.js';
import { SettingsStore } from './settings-store.js';

type OutputMode = NonNullable<CommandParameters<'CreateClip'>['OutputMode']>;

/** A segment and the library item it cuts, or why it cannot be cut. */
interface ResolvedSegment {
  segment: Segment;
  item?: ContentRecord;
  problem?: string;
}

interface ClipJob {
  id: number;
  segments: ResolvedSegment[];
  cancelled: boolean;
  started: boolean;
  process?: FfmpegProcess;
  lastProgress: number;
  done: Promise<void>;
}

/** A job ended by `CancelClip`. */
class ClipCancelled extends Error {}

/** How a piece is placed in the clip: its source and offset, for bookmarks. */
interface PlacedPiece extends ClipPiece {
  item: ContentRecord;
  offsetSeconds: number;
}

/** Ends past the video by less than this are taken as its end (players round). */
const END_TOLERANCE_SECONDS = 0.5;

@injectable()
export class ClipService {
  private readonly jobs = new Map<number, ClipJob>();
  private queue: Promise<void> = Promise.resolve();
  private readonly logger: Logger;

  constructor(
    private readonly settings: SettingsStore,
    private readonly library: ContentLibrary,
    private readonly locator: ContentLocator,
    private readonly engine: CaptureEngine,
    private readonly artwork: ContentArtwork,
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('clips');
  }

  /**
   * Queues the clip (or, `separate`, one clip per segment) and returns. Paths outside the content
   * folder are refused before anything starts; other problems of a segment end its job with -1.
   */
  async create(segments: readonly Segment[], outputMode: OutputMode = 'combined'): Promise<void> {
    this.tools();
    const resolved = await Promise.all(segments.map((segment) => this.resolve(segment)));
    const groups = outputMode === 'separate' ? resolved.map((entry) => [entry]) : [resolved];
    for (const group of groups) {
      const id = group[0]!.segment.id;
      if (this.jobs.has(id)) throw new CommandError('NotAllowed', `A clip with the id ${id} is already being made.`);
    }
    for (const group of groups) this.enqueue(group);
  }

  /** Kills the job's ffmpeg, removes what it wrote, then `ClipProgress {id, 100, []}` (sent by the job). */
  async cancel(id: number): Promise<void> {
    const job = this.jobs.get(id) ?? [...this.jobs.values()].find((entry) => entry.segments.some(({ segment }) => segment.id === id));
    if (!job) throw new CommandError('NotFound', `There is no clip being made with the id ${id}.`);
    job.cancelled = true;
    await job.process?.cancel();
    await job.done;
  }

  /** Waits for every queued job (tests, shutdown). */
  async idle(): Promise<void> {
    await this.queue;
  }

  async shutdown(): Promise<void> {
    await Promise.all([...this.jobs.keys()].map((id) => this.cancel(id).catch(() => undefined)));
  }

  private tools(): EngineTools {
    try {
      return this.engine.tools();
    } catch (error) {
      if (error instanceof CaptureEngineUnavailableError) throw new CommandError('Unavailable', error.message);
      throw error;
    }
  }

  /** `filePath` when it names a library video inside the content folder, else `fileName` + `type`. */
  private async resolve(segment: Segment): Promise<ResolvedSegment> {
    try {
      if (segment.filePath) {
        try {
          return { segment, item: await this.locator.byFilePath(segment.filePath, segment.type) };
        } catch (error) {
          // Traversal and malformed paths refuse the command; a path that is gone falls back to the name.
          if (!(error instanceof CommandError) || error.code !== 'NotFound') throw error;
        }
      }
      return { segment, item: this.locator.byFileName(segment.fileName, segment.type) };
    } catch (error) {
      if (error instanceof CommandError && error.code === 'NotFound') return { segment, problem: error.message };
      throw error;
    }
  }

  private enqueue(segments: ResolvedSegment[]): void {
    const id = segments[0]!.segment.id;
    let release!: () => void;
    const job: ClipJob = { id, segments, cancelled: false, started: false, lastProgress: 0, done: new Promise((resolve) => { release = resolve; }) };
    this.jobs.set(id, job);
    this.progress(job, 0);
    this.queue = this.queue.then(() => this.run(job)).catch((error: unknown) => this.logger.error('clip job failed unexpectedly', { id, error }))
      .finally(() => {
        this.jobs.delete(id);
        release();
      });
  }

  private async run(job: ClipJob): Promise<void> {
    const began = Date.now();
    const work = path.join(this.settings.current.cacheFolder, 'clip-work', randomUUID());
    let target: string | undefined;
    try {
      if (job.cancelled) throw new ClipCancelled();
      job.started = true;
      const tools = this.tools();
      const pieces = await this.pieces(job, tools);
      const first = job.segments[0]!.segment;
      target = await freePath(this.library.contentPath('Clip', first.game, `${fileStamp(new Date())}.mp4`));
      await mkdir(work, { recursive: true });
      const quality: ClipQuality = this.settings.current;
      const copy = allowsCopy(quality, pieces);
      const method = await produceInto(target, async (temp) => {
        const used = copy ? await this.cutAndJoin(job, pieces, temp, work, tools) : await this.encode(job, pieces, temp, tools);
        if (job.cancelled) throw new ClipCancelled();
        return used;
      });
      const probed = await probeMedia(tools.ffprobe.path, target);
      if (job.cancelled) throw new ClipCancelled();
      const durationSeconds = probed.durationSeconds ?? pieces.reduce((sum, piece) => sum + piece.endSeconds - piece.startSeconds, 0);
      const tracks = probed.streams.filter((stream) => stream.type === 'audio');
      const item = await this.artwork.addWithArtwork({
        type: 'Clip',
        filePath: target,
        game: first.game,
        durationSeconds,
        title: first.title ?? '',
        bookmarks: clipBookmarks(pieces),
        gameDatabaseId: first.gameDatabaseId ?? pieces[0]!.item.gameDatabaseId ?? null,
        audioTrackNames: tracks.length > 1 ? tracks.map((stream, index) => stream.title ?? `Track ${index + 1}`) : null,
      }, probed, tools);
      this.progress(job, 100);
      this.logger.info('clip created', { id: job.id, item: item.id, file: target, segments: pieces.length, method, duration: durationSeconds, tookMs: Date.now() - began });
    } catch (error) {
      if (error instanceof ClipCancelled || job.cancelled) {
        if (target) await removeEmptyFolder(path.dirname(target));
        this.logger.info('clip cancelled', { id: job.id });
        this.events.send('ClipProgress', { id: job.id, progress: 100, segments: [] });
      } else {
        const message = error instanceof Error ? error.message : String(error);
        if (target) await removeEmptyFolder(path.dirname(target));
        this.logger.warn('clip not created', { id: job.id, error: message });
        this.events.send('ClipProgress', { id: job.id, progress: -1, segments: job.segments.map(({ segment }) => segment), error: message });
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /** Each segment's source probed and its times checked against it. */
  private async pieces(job: ClipJob, tools: EngineTools): Promise<PlacedPiece[]> {
    const pieces: PlacedPiece[] = [];
    let offsetSeconds = 0;
    for (const [index, { segment, item, problem }] of job.segments.entries()) {
      const label = job.segments.length > 1 ? `Segment ${index + 1} (${segment.fileName})` : `The segment of ${segment.fileName}`;
      if (!item) throw new Error(`${label}: ${problem ?? 'the video is not in the library.'}`);
      if (!(segment.endTime > segment.startTime)) throw new Error(`${label}: its end (${segment.endTime} s) is not after its start (${segment.startTime} s).`);
      const probed = await probeMedia(tools.ffprobe.path, item.filePath).catch((error: unknown) => {
        throw new Error(`${label}: the video cannot be read (${(error as Error).message}).`);
      });
      const video = probed.streams.find((stream) => stream.type === 'video');
      const duration = probed.durationSeconds ?? 0;
      if (!video) throw new Error(`${label}: ${item.filePath} has no video.`);
      if (segment.startTime >= duration || segment.endTime > duration + END_TOLERANCE_SECONDS) {
        throw new Error(`${label}: ${segment.startTime}–${segment.endTime} s is outside the video, which is ${duration.toFixed(2)} s long.`);
      }
      const source: ClipSource = {
        path: item.filePath,
        durationSeconds: duration,
        videoCodec: video.codec,
        width: video.width ?? 1280,
        height: video.height ?? 720,
        frameRate: video.frameRate ?? 30,
        audioTracks: probed.streams.filter((stream) => stream.type === 'audio').map((stream) => ({
          codec: stream.codec,
          ...(stream.sampleRate ? { sampleRate: stream.sampleRate } : {}),
          ...(stream.channels ? { channels: stream.channels } : {}),
          ...(stream.title ? { title: stream.title } : {}),
        })),
      };
      const endSeconds = Math.min(segment.endTime, duration);
      const volumes: Record<number, number> = {};
      for (const [track, volume] of Object.entries(segment.audioTrackVolumes ?? {})) volumes[Number(track)] = volume;
      pieces.push({ source, item, offsetSeconds, startSeconds: segment.startTime, endSeconds, mutedAudioTracks: segment.mutedAudioTracks ?? [], audioTrackVolumes: volumes });
      offsetSeconds += endSeconds - segment.startTime;
    }
    return pieces;
  }

  /** The fast path: each piece copied from a keyframe (its head re-encoded when it starts between), then joined. */
  private async cutAndJoin(job: ClipJob, pieces: PlacedPiece[], temp: string, work: string, tools: EngineTools): Promise<string> {
    const total = pieces.reduce((sum, piece) => sum + piece.endSeconds - piece.startSeconds, 0);
    const encoder = chooseClipEncoder({ clipEncoder: 'cpu', clipCodec: this.settings.current.clipCodec }, this.engine.codecs);
    const quality: ClipQuality = this.settings.current;
    const parts: string[] = [];
    const kinds: string[] = [];
    let done = 0;
    const step = async (args: string[], output: string, seconds: number) => {
      await this.runFfmpeg(job, args, [output], (at) => this.progress(job, percentOf(done + Math.min(at, seconds), 2 * total)), tools);
      done += seconds;
      parts.push(output);
    };
    for (const [index, piece] of pieces.entries()) {
      const keyframes = await this.keyframes(tools, piece);
      const plan = planCut(piece.startSeconds, piece.endSeconds, keyframes, 1 / (piece.source.frameRate || 30));
      kinds.push(plan.kind);
      if (plan.kind === 'copy') {
        await step(copyArgs(piece.source.path, plan.fromSeconds, plan.toSeconds, path.join(work, `${index}-copy.ts`)), path.join(work, `${index}-copy.ts`), plan.toSeconds - plan.fromSeconds);
      } else {
        const headEnd = plan.kind === 'smart' ? plan.keyframeSeconds : plan.toSeconds;
        const head = path.join(work, `${index}-head.ts`);
        await step(headArgs(piece, headEnd, { encoder, quality, target: head }), head, headEnd - plan.fromSeconds);
        if (plan.kind === 'smart') {
          const tail = path.join(work, `${index}-tail.ts`);
          await step(copyArgs(piece.source.path, plan.keyframeSeconds, plan.toSeconds, tail), tail, plan.toSeconds - plan.keyframeSeconds);
        }
      }
    }
    const list = path.join(work, 'parts.txt');
    await writeFile(list, concatList(parts));
    const names = pieces[0]!.source.audioTracks.map((track) => track.title);
    await this.runFfmpeg(job, joinArgs(list, temp, names), [temp], (at) => this.progress(job, percentOf(total + at, 2 * total)), tools);
    return kinds.join('+');
  }

  /** The re-encode: every piece in one ffmpeg run, in the clip preset. */
  private async encode(job: ClipJob, pieces: PlacedPiece[], temp: string, tools: EngineTools): Promise<string> {
    const total = pieces.reduce((sum, piece) => sum + piece.endSeconds - piece.startSeconds, 0);
    const quality: ClipQuality = this.settings.current;
    const encoder = chooseClipEncoder(quality, this.engine.codecs);
    await this.runFfmpeg(job, encodeArgs(pieces, { quality, encoder, target: temp, format: 'mp4' }), [temp], (at) => this.progress(job, percentOf(at, total)), tools);
    return `encode:${encoder.id}`;
  }

  /** Keyframe times of the piece's source around the piece (packets only, nothing decoded). */
  private keyframes(tools: EngineTools, piece: ClipPiece): Promise<number[]> {
    const from = Math.max(0, piece.startSeconds - 0.5);
    return new Promise((resolve, reject) => {
      execFile(tools.ffprobe.path, [
        '-v', 'error', '-select_streams', 'v:0', '-read_intervals', `${from.toFixed(3)}%${piece.endSeconds.toFixed(3)}`,
        '-show_entries', 'packet=pts_time,flags:format=start_time', '-of', 'json', piece.source.path,
      ], { maxBuffer: 64 * 1024 * 1024, windowsHide: true }, (error, stdout, stderr) => {
        if (error) reject(new Error(`The keyframes of ${piece.source.path} cannot be read: ${stderr.trim() || error.message}`));
        else resolve(parseKeyframes(stdout));
      });
    });
  }

  private async runFfmpeg(job: ClipJob, args: string[], outputs: string[], onPosition: (seconds: number) => void, tools: EngineTools): Promise<void> {
    if (job.cancelled) throw new ClipCancelled();
    const process = FfmpegProcess.start({ ffmpegPath: tools.ffmpeg.path, args, outputs, logger: this.logger });
    job.process = process;
    process.onProgress((report) => {
      if (report.outTimeSeconds !== undefined) onPosition(report.outTimeSeconds);
    });
    const exit = await process.exited;
    job.process = undefined;
    if (job.cancelled) throw new ClipCancelled();
    if (!exit.succeeded) throw new Error(`ffmpeg could not make the clip: ${exit.errorText}`);
  }

  /** Sends `ClipProgress` when the percentage rose (0 and 100 always once). */
  private progress(job: ClipJob, progress: number): void {
    if (job.cancelled) return;
    if (progress !== 0 && progress <= job.lastProgress) return;
    job.lastProgress = progress;
    this.events.send('ClipProgress', { id: job.id, progress, segments: job.segments.map(({ segment }) => segment) });
  }
}

/** The sources' bookmarks inside the pieces, at their time in the clip; each bookmark once. */
export function clipBookmarks(pieces: readonly (Pick<PlacedPiece, 'startSeconds' | 'endSeconds' | 'offsetSeconds'> & { item: Pick<ContentRecord, 'bookmarks'> })[]): Bookmark[] {
  const seen = new Set<number>();
  return pieces.flatMap((piece) => piece.item.bookmarks.flatMap((bookmark) => {
    const time = parseDuration(bookmark.time);
    if (time === undefined || time < piece.startSeconds || time > piece.endSeconds || seen.has(bookmark.id)) return [];
    seen.add(bookmark.id);
    return [{ ...bookmark, time: formatDuration(piece.offsetSeconds + time - piece.startSeconds) }];
  }));
}

/** The game folder a failed clip created, if nothing else is in it. */
async function removeEmptyFolder(folder: string): Promise<void> {
  await rmdir(folder).catch(() => undefined);
}
