// Clip jobs (`CreateClip`, `CancelClip`): segments of library videos joined into a Clip item, by
// stream copy where the cut points allow it, else re-encoded in the clip quality preset. Jobs run one
// at a time on the job runner's clip queue; each reports `ClipProgress` and writes its file under a temporary name.
import { randomUUID } from 'node:crypto';
import { mkdir, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../../protocol/refusal.js';
import {
  allowsCopy,
  chooseClipEncoder,
  concatList,
  copyArgs,
  encodeArgs,
  headArgs,
  joinArgs,
  outputTrackNames,
  planCut,
  type ClipPiece,
  type ClipQuality,
  type ClipSource,
  type CutPlan,
} from '../../media/clip-encoding.js';
import { FfmpegToolbox, type FfmpegTools } from '../../media/ffmpeg-toolbox.js';
import { percentOf, produceInto } from '../../media/job-output.js';
import { probeMedia } from '../../media/probe.js';
import { type CommandParameters, type Segment } from '../../protocol/index.js';
import { Logger } from '../../support/logger.js';
import { EVENT_SINK, type EventSink } from '../../protocol/event-sink.js';
import { ContentLibrary, type ContentBookmark, type ContentRecord } from '../../library/content-library.js';
import { ContentLocator } from '../../library/content-locator.js';
import { fileStamp } from '../../recording/recorder-service.js';
import { SettingsStore } from '../../settings/settings-store.js';
import { ContentIngest } from '../../library/content-ingest.js';
import { outputReference, type OutputReference } from '../../library/output-reference.js';
import { JobCancelled, JobRunner, risingProgress, type Job, type JobFfmpeg } from '../job-runner.js';
import { PhasedProgress, type ProgressPhase } from '../phased-progress.js';

type OutputMode = NonNullable<CommandParameters<'CreateClip'>['OutputMode']>;

/** A segment and the library item it cuts, or why it cannot be cut. */
interface ResolvedSegment {
  segment: Segment;
  item?: ContentRecord;
  problem?: string;
}

/** A clip being made: its job on the runner, what it cuts, and its `ClipProgress` (sent while it rises). */
interface ClipJob {
  job: Job;
  id: number;
  segments: ResolvedSegment[];
  progress: (percent: number) => void;
  /** Sends the one 100 of a clip that is listed. */
  complete: (item: ContentRecord) => void;
  /** Settles when the clip is listed or has failed (its artwork may still be being made). */
  done: Promise<unknown>;
}

const MAKING_THE_CLIP = 'Making the clip';

/** How a piece is placed in the clip: its source and offset, for bookmarks, and its keyframes as probed. */
interface PlacedPiece extends ClipPiece {
  item: ContentRecord;
  offsetSeconds: number;
  /** Keyframe times read up to `untilSeconds` (the probe reads a window, not the whole piece). */
  keyframes: { times: number[]; untilSeconds: number };
}

/** A copy started before the probe said whether it can be kept. */
interface EarlyCopy {
  finished: Promise<void>;
  /** The probe said it is kept: its progress is the clip's from now on. */
  keep(): void;
  stop(): Promise<void>;
}

/** A step of a smart cut: one ffmpeg run writing one part of the clip. */
interface CutStep {
  args: string[];
  output: string;
  seconds: number;
  /** Re-encoded (a head), else stream-copied. */
  encoded: boolean;
}

/**
 * What re-encoding a second costs against copying one, for the clip's progress: the clip preset's x264 at
 * 720p–1080p runs at a few times real time, a stream copy at hundreds.
 */
const ENCODE_COST_PER_COPIED_SECOND = 20;

/** The expected cost of each step of a smart cut, then of the join (a copy of the whole clip, `totalSeconds`). */
export function cutPhases(steps: readonly Pick<CutStep, 'seconds' | 'encoded'>[], totalSeconds: number): ProgressPhase[] {
  return [...steps.map((step) => ({ cost: step.seconds * (step.encoded ? ENCODE_COST_PER_COPIED_SECOND : 1) })), { cost: totalSeconds }];
}

/** Ends past the video by less than this are taken as its end (players round). */
const END_TOLERANCE_SECONDS = 0.5;
/** How far past a segment's start its keyframes are read with the probe: several keyframe intervals of common encoders (1–2 s). */
const KEYFRAME_WINDOW_SECONDS = 5;

/** The span whose keyframes decide how a segment is cut: a start on one, or the next one after it. */
function keyframeWindow(startSeconds: number, endSeconds: number): { fromSeconds: number; toSeconds: number } {
  return { fromSeconds: Math.max(0, startSeconds - 0.5), toSeconds: Math.min(endSeconds, startSeconds + KEYFRAME_WINDOW_SECONDS) };
}

@injectable()
export class ClipService {
  /** The clips queued or being made, by their id (the first segment's). */
  private readonly clips = new Map<number, ClipJob>();
  private readonly logger: Logger;

  constructor(
    private readonly settings: SettingsStore,
    private readonly library: ContentLibrary,
    private readonly locator: ContentLocator,
    private readonly toolbox: FfmpegToolbox,
    private readonly ingest: ContentIngest,
    private readonly runner: JobRunner,
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
    this.toolbox.requireFfmpeg(MAKING_THE_CLIP);
    const resolved = await Promise.all(segments.map((segment) => this.resolve(segment)));
    const groups = outputMode === 'separate' ? resolved.map((entry) => [entry]) : [resolved];
    for (const group of groups) {
      const id = group[0]!.segment.id;
      if (this.runner.find('clip', String(id))) throw new CommandError('NotAllowed', `A clip with the id ${id} is already being made.`);
    }
    for (const group of groups) this.enqueue(group);
  }

  /** Kills the job's ffmpeg, removes what it wrote, then `ClipProgress {id, 100, []}` (sent by the job). */
  async cancel(id: number): Promise<void> {
    const clip = this.clips.get(id) ?? [...this.clips.values()].find((entry) => entry.segments.some(({ segment }) => segment.id === id));
    if (!clip) throw new CommandError('NotFound', `There is no clip being made with the id ${id}.`);
    await this.runner.cancel(clip.job);
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
    const send = (progress: number, output?: OutputReference) =>
      this.events.send('ClipProgress', { id, progress, segments: segments.map(({ segment }) => segment), ...(output ? { output } : {}) });
    const { job, done } = this.runner.start({ kind: 'clip', operation: MAKING_THE_CLIP, key: String(id), queue: 'clip' }, () =>
      this.run(clip),
    );
    // After a cancel, only the job's last word (100 with no segments) is sent.
    const progress = risingProgress((percent) => {
      if (!job.cancelled) send(percent);
    });
    const clip: ClipJob = {
      job,
      id,
      segments,
      progress,
      complete: (item) => send(100, outputReference(item)),
      done: done.catch((error: unknown) => this.logger.error('clip job failed unexpectedly', { id, error })),
    };
    this.clips.set(id, clip);
    send(0);
    void clip.done.finally(() => this.clips.delete(id));
  }

  /** Resolves when every clip queued so far is listed or has failed (tests, the bench); artwork may follow. */
  async idle(): Promise<void> {
    while (this.clips.size > 0) await Promise.all([...this.clips.values()].map((clip) => clip.done));
  }

  private async run(clip: ClipJob): Promise<void> {
    const { job } = clip;
    const began = Date.now();
    const work = path.join(clipWorkFolder(this.settings.current.cacheFolder), randomUUID());
    let target: string | undefined;
    try {
      job.throwIfCancelled();
      const tools = job.tools;
      const first = clip.segments[0]!.segment;
      target = this.library.contentPath('Clip', first.game, `${fileStamp(new Date())}.mp4`);
      const output = await produceInto(target, async (temp) => {
        const made = await this.make(clip, temp, work, tools);
        job.throwIfCancelled();
        return made;
      });
      const { pieces, method } = output.value;
      target = output.filePath;
      const durationSeconds = pieces.reduce((sum, piece) => sum + piece.endSeconds - piece.startSeconds, 0);
      const tracks = outputTrackNames(pieces, this.keepsSeparateTracks());
      // The clip is listed at once; its thumbnail and waveform follow (a request for them waits).
      const { item, artworkMade } = await this.ingest.addListedFirst({
        file: target,
        type: 'Clip',
        ownsFile: true,
        meta: {
          game: first.game,
          durationSeconds,
          title: first.title ?? '',
          bookmarks: clipBookmarks(pieces),
          gameDatabaseId: first.gameDatabaseId ?? pieces[0]!.item.gameDatabaseId ?? null,
          audioTrackNames: tracks.length > 1 ? tracks.map((name, index) => name ?? `Track ${index + 1}`) : null,
        },
        artworkSources: {
          picture: { video: target, durationSeconds },
          sound: { video: target, audioStreams: tracks.length, durationSeconds },
        },
        tools,
      });
      job.track(artworkMade);
      clip.complete(item);
      this.logger.info('clip created', {
        id: clip.id,
        item: item.id,
        file: target,
        segments: pieces.length,
        method,
        duration: durationSeconds,
        tookMs: Date.now() - began,
      });
    } catch (error) {
      if (target) await removeEmptyFolders(path.dirname(target));
      if (error instanceof JobCancelled || job.cancelled) {
        this.logger.info('clip cancelled', { id: clip.id });
        this.events.send('ClipProgress', { id: clip.id, progress: 100, segments: [] });
      } else {
        const message = error instanceof Error ? error.message : String(error);
        this.logger.warn('clip not created', { id: clip.id, error: message });
        this.events.send('ClipProgress', {
          id: clip.id,
          progress: -1,
          segments: clip.segments.map(({ segment }) => segment),
          error: message,
        });
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /**
   * Writes the clip into `temp`. A single segment that asks for no audio change is copied into place
   * at once, beside the probe that tells whether it may be: kept when it starts on a keyframe, the
   * commonest clip, else stopped and the clip made by a smart cut or a re-encode.
   */
  private async make(clip: ClipJob, temp: string, work: string, tools: FfmpegTools): Promise<{ pieces: PlacedPiece[]; method: string }> {
    const early = this.startEarlyCopy(clip, temp);
    try {
      const pieces = await this.pieces(clip, tools);
      const quality: ClipQuality = this.settings.current;
      const keepSeparate = this.keepsSeparateTracks();
      if (!allowsCopy(quality, pieces, keepSeparate)) {
        await early?.stop();
        return { pieces, method: await this.encode(clip, pieces, temp) };
      }
      const plans = await Promise.all(pieces.map((piece) => this.plan(piece, tools)));
      if (early && plans.length === 1 && plans[0]!.kind === 'copy') {
        early.keep();
        const copied = await early.finished.then(
          () => true,
          (error: unknown) => {
            clip.job.throwIfCancelled();
            this.logger.info('direct clip copy failed; cutting it the other way', { id: clip.id, error: (error as Error).message });
            return false;
          },
        );
        if (copied) return { pieces, method: 'copy' };
      }
      await early?.stop();
      return { pieces, method: await this.cutAndJoin(clip, pieces, plans, temp, work) };
    } catch (error) {
      await early?.stop();
      throw error;
    }
  }

  /** The direct copy of a lone segment that changes no audio, started before its source is probed. */
  private startEarlyCopy(clip: ClipJob, temp: string): EarlyCopy | undefined {
    const [only, ...others] = clip.segments;
    const { segment, item } = only!;
    const asksAudioChange =
      (segment.mutedAudioTracks ?? []).length > 0 || Object.values(segment.audioTrackVolumes ?? {}).some((volume) => volume !== 1);
    if (others.length > 0 || !item || asksAudioChange || !(segment.endTime > segment.startTime)) return undefined;
    const args = copyArgs(item.filePath, segment.startTime, segment.endTime, temp, {
      format: 'mp4',
      keepSeparateTracks: this.keepsSeparateTracks(),
      audioTracks: item.audioTrackNames?.length ?? 1,
    });
    // Its progress is held back until the probe says it is kept: a copy that is stopped is no part of the clip's progress.
    let position = 0;
    let kept = false;
    const report = () => clip.progress(percentOf(position, segment.endTime - segment.startTime));
    const { process, finished } = this.startFfmpeg(clip, args, [temp], (at) => {
      position = at;
      if (kept) report();
    });
    // Settled here so that a copy stopped early never counts as an unhandled failure.
    finished.catch(() => undefined);
    return {
      finished,
      keep: () => {
        kept = true;
        report();
      },
      stop: async () => {
        await process.cancel();
        await finished.catch(() => undefined);
      },
    };
  }

  /** Each segment's source probed (with the keyframes around its start) and its times checked against it. */
  private async pieces({ segments }: ClipJob, tools: FfmpegTools): Promise<PlacedPiece[]> {
    const probes = segments.map(({ segment, item }) =>
      item && segment.endTime > segment.startTime
        ? probeMedia(tools.ffprobe.path, item.filePath, { keyframesIn: keyframeWindow(segment.startTime, segment.endTime) })
        : undefined,
    );
    // Every probe is awaited (settled) before any error is raised, so none is left running.
    await Promise.allSettled(probes);
    const pieces: PlacedPiece[] = [];
    let offsetSeconds = 0;
    for (const [index, { segment, item, problem }] of segments.entries()) {
      const label = segments.length > 1 ? `Segment ${index + 1} (${segment.fileName})` : `The segment of ${segment.fileName}`;
      if (!item) throw new Error(`${label}: ${problem ?? 'the video is not in the library.'}`);
      if (!(segment.endTime > segment.startTime))
        throw new Error(`${label}: its end (${segment.endTime} s) is not after its start (${segment.startTime} s).`);
      const probed = await probes[index]!.catch((error: unknown) => {
        throw new Error(`${label}: the video cannot be read (${(error as Error).message}).`);
      });
      const video = probed.streams.find((stream) => stream.type === 'video');
      const duration = probed.durationSeconds ?? 0;
      if (!video) throw new Error(`${label}: ${item.filePath} has no video.`);
      if (segment.startTime >= duration || segment.endTime > duration + END_TOLERANCE_SECONDS) {
        throw new Error(
          `${label}: ${segment.startTime}–${segment.endTime} s is outside the video, which is ${duration.toFixed(2)} s long.`,
        );
      }
      const source: ClipSource = {
        path: item.filePath,
        durationSeconds: duration,
        videoCodec: video.codec,
        width: video.width ?? 1280,
        height: video.height ?? 720,
        frameRate: video.frameRate ?? 30,
        audioTracks: probed.streams
          .filter((stream) => stream.type === 'audio')
          .map((stream) => ({
            codec: stream.codec,
            ...(stream.sampleRate ? { sampleRate: stream.sampleRate } : {}),
            ...(stream.channels ? { channels: stream.channels } : {}),
            ...(stream.title ? { title: stream.title } : {}),
          })),
      };
      const endSeconds = Math.min(segment.endTime, duration);
      const volumes: Record<number, number> = {};
      for (const [track, volume] of Object.entries(segment.audioTrackVolumes ?? {})) volumes[Number(track)] = volume;
      const window = keyframeWindow(segment.startTime, segment.endTime);
      pieces.push({
        source,
        item,
        offsetSeconds,
        startSeconds: segment.startTime,
        endSeconds,
        mutedAudioTracks: segment.mutedAudioTracks ?? [],
        audioTrackVolumes: volumes,
        keyframes: { times: probed.keyframes ?? [], untilSeconds: window.toSeconds },
      });
      offsetSeconds += endSeconds - segment.startTime;
    }
    return pieces;
  }

  /** How to cut the piece; its keyframes are read further when the probed window holds none after its start. */
  private async plan(piece: PlacedPiece, tools: FfmpegTools): Promise<CutPlan> {
    const frameSeconds = 1 / (piece.source.frameRate || 30);
    const plan = planCut(piece.startSeconds, piece.endSeconds, piece.keyframes.times, frameSeconds);
    if (plan.kind !== 'encode' || piece.keyframes.untilSeconds >= piece.endSeconds) return plan;
    return planCut(piece.startSeconds, piece.endSeconds, await this.keyframes(tools, piece), frameSeconds);
  }

  /**
   * The fast path: each piece copied from a keyframe (its head re-encoded when it starts between), then
   * joined; the clip's progress is one scale over these steps, each weighted by its expected cost.
   */
  private async cutAndJoin(clip: ClipJob, pieces: PlacedPiece[], plans: CutPlan[], temp: string, work: string): Promise<string> {
    await mkdir(work, { recursive: true });
    const total = pieces.reduce((sum, piece) => sum + piece.endSeconds - piece.startSeconds, 0);
    const encoder = chooseClipEncoder({ clipEncoder: 'cpu', clipCodec: this.settings.current.clipCodec }, this.toolbox.codecs);
    const quality: ClipQuality = this.settings.current;
    const keepSeparateTracks = this.keepsSeparateTracks();
    const steps: CutStep[] = pieces.flatMap((piece, index) => {
      const plan = plans[index]!;
      const copy = (from: number, output: string): CutStep => ({
        args: copyArgs(piece.source.path, from, plan.toSeconds, output, {
          format: 'mpegts',
          keepSeparateTracks,
          audioTracks: piece.source.audioTracks.length,
        }),
        output,
        seconds: plan.toSeconds - from,
        encoded: false,
      });
      if (plan.kind === 'copy') return [copy(plan.fromSeconds, path.join(work, `${index}-copy.ts`))];
      const headEnd = plan.kind === 'smart' ? plan.keyframeSeconds : plan.toSeconds;
      const head = path.join(work, `${index}-head.ts`);
      const encoded: CutStep = {
        args: headArgs(piece, headEnd, { encoder, quality, target: head, keepSeparateTracks }),
        output: head,
        seconds: headEnd - plan.fromSeconds,
        encoded: true,
      };
      return plan.kind === 'smart' ? [encoded, copy(plan.keyframeSeconds, path.join(work, `${index}-tail.ts`))] : [encoded];
    });
    const progress = new PhasedProgress(cutPhases(steps, total), clip.progress);
    // A piece's head and tail are read from different places of the source and written to different
    // parts: both run at once (the encode takes one core, the copy the disk). Only the encode, the bulk
    // of the cost, reports progress: the parts run in parallel, the scale is sequential.
    for (const group of pieceSteps(steps)) {
      const runs = group.map(({ step, index }) =>
        this.runFfmpeg(
          clip,
          step.args,
          [step.output],
          step.encoded || group.length === 1 ? (at) => progress.at(index, at / step.seconds) : () => undefined,
        ),
      );
      // Every run settles before a failure is raised, so none writes into the work folder after it is removed.
      const failed = (await Promise.allSettled(runs)).find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    }
    const list = path.join(work, 'parts.txt');
    await writeFile(list, concatList(steps.map((step) => step.output)));
    const join = (reserveIndex: boolean) =>
      this.runFfmpeg(
        clip,
        joinArgs(list, temp, outputTrackNames(pieces, keepSeparateTracks), reserveIndex ? total : undefined),
        [temp],
        (at) => progress.at(steps.length, at / total),
      );
    await join(true).catch(async (error: unknown) => {
      clip.job.throwIfCancelled();
      // The index outgrew the room reserved for it (a frame rate beyond the bound): the join with a second pass.
      this.logger.info('clip join with a reserved index failed; joining with faststart', { id: clip.id, error: (error as Error).message });
      await join(false);
    });
    return plans.map((plan) => plan.kind).join('+');
  }

  /** The re-encode: every piece in one ffmpeg run, in the clip preset. */
  private async encode(clip: ClipJob, pieces: PlacedPiece[], temp: string): Promise<string> {
    const total = pieces.reduce((sum, piece) => sum + piece.endSeconds - piece.startSeconds, 0);
    const quality: ClipQuality = this.settings.current;
    const encoder = chooseClipEncoder(quality, this.toolbox.codecs);
    const args = encodeArgs(pieces, { quality, encoder, target: temp, format: 'mp4', keepSeparateTracks: this.keepsSeparateTracks() });
    await this.runFfmpeg(clip, args, [temp], (at) => clip.progress(percentOf(at, total)));
    return `encode:${encoder.id}`;
  }

  /** Keyframe times of the piece's whole span (the probe's window ended before one came after its start). */
  private async keyframes(tools: FfmpegTools, piece: ClipPiece): Promise<number[]> {
    const probed = await probeMedia(tools.ffprobe.path, piece.source.path, {
      keyframesIn: { fromSeconds: Math.max(0, piece.startSeconds - 0.5), toSeconds: piece.endSeconds },
    });
    return probed.keyframes ?? [];
  }

  private keepsSeparateTracks(): boolean {
    return this.settings.current.clipKeepSeparateAudioTracks;
  }

  private runFfmpeg(clip: ClipJob, args: string[], outputs: string[], onPosition: (seconds: number) => void): Promise<void> {
    return this.startFfmpeg(clip, args, outputs, onPosition).finished;
  }

  /** Starts ffmpeg as part of the clip's job (`CancelClip` kills it); `finished` rejects when it failed or the job was cancelled. */
  private startFfmpeg(clip: ClipJob, args: string[], outputs: string[], onPosition: (seconds: number) => void): JobFfmpeg {
    return clip.job.ffmpeg({
      args,
      outputs,
      logger: this.logger,
      onPosition,
      failure: (exit) => `ffmpeg could not make the clip: ${exit.errorText}`,
    });
  }
}

/** The steps of a smart cut by piece (a head and its tail run together), with their index in the clip's progress. */
function pieceSteps(steps: readonly CutStep[]): { step: CutStep; index: number }[][] {
  const groups: { step: CutStep; index: number }[][] = [];
  for (const [index, step] of steps.entries()) {
    // A copy that follows a head is its tail: the same piece.
    if (!step.encoded && steps[index - 1]?.encoded) groups.at(-1)!.push({ step, index });
    else groups.push([{ step, index }]);
  }
  return groups;
}

/** Where clip jobs keep the parts they join: one folder per job, removed when it ends. */
export function clipWorkFolder(cacheFolder: string): string {
  return path.join(cacheFolder, 'clip-work');
}

/** The sources' bookmarks inside the pieces, at their time in the clip; each bookmark once. */
export function clipBookmarks(
  pieces: readonly (Pick<PlacedPiece, 'startSeconds' | 'endSeconds' | 'offsetSeconds'> & { item: Pick<ContentRecord, 'bookmarks'> })[],
): ContentBookmark[] {
  const seen = new Set<number>();
  return pieces.flatMap((piece) =>
    piece.item.bookmarks.flatMap((bookmark) => {
      const time = bookmark.seconds;
      if (time < piece.startSeconds || time > piece.endSeconds || seen.has(bookmark.id)) return [];
      seen.add(bookmark.id);
      return [{ ...bookmark, seconds: piece.offsetSeconds + time - piece.startSeconds }];
    }),
  );
}

/** The game folder and the Clips folder a failed clip created, as far as nothing else is in them. */
async function removeEmptyFolders(gameFolder: string): Promise<void> {
  for (const folder of [gameFolder, path.dirname(gameFolder)]) {
    if (
      !(await rmdir(folder).then(
        () => true,
        () => false,
      ))
    )
      return;
  }
}
