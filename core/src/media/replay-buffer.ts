// The replay buffer on disk: the recording's ffmpeg writes ~2 s MPEG-TS segments into
// `<cache>/replay-buffer/<recording>/`; this keeps a rolling window of them (duration plus one
// segment, and under the size limit) and joins the newest ones into an MP4 by stream copy.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../support/logger.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { tempOutputPath } from './job-output.js';
import { moveFile } from './move-file.js';
import { audioTrackNameArgs, SEGMENT_EXTENSION, SEGMENT_FORMAT } from './session-encoding.js';
import { fileInput } from './file-input.js';

export const SEGMENT_SECONDS = 2;
const SEGMENT_NAME = /^segment-(\d+)\.ts$/;
const PRUNE_INTERVAL_MS = 1000;
const FLUSH_POLL_MS = 100;

export interface SegmentFile {
  index: number;
  file: string;
  sizeBytes: number;
  /** Closed by ffmpeg: a newer segment exists, or the recording ended. */
  complete: boolean;
}

export interface BufferLimits {
  /** The replay length a save should cover (`replayBufferDuration`). */
  durationSeconds: number;
  /** Upper bound of all segments together (`replayBufferMaxSize` MB). */
  maxBytes: number;
  segmentSeconds: number;
}

/**
 * The segments to delete, oldest first. Complete segments beyond the window (the duration plus one
 * segment of margin, so a save never finds its oldest segment just deleted) go; then, oldest
 * first, complete segments while everything kept is over the size limit. The segment being
 * written and `pinned` ones (read by a save) stay, and nothing newer than a pinned one is deleted
 * for size, so the buffer never gets a hole.
 */
export function segmentsToPrune(
  segments: readonly SegmentFile[],
  limits: BufferLimits,
  pinned: ReadonlySet<number> = new Set(),
): SegmentFile[] {
  const complete = segments.filter((segment) => segment.complete).sort((a, b) => a.index - b.index);
  const keep = Math.ceil(limits.durationSeconds / limits.segmentSeconds) + 1;
  const outOfWindow = complete.slice(0, Math.max(0, complete.length - keep)).filter((segment) => !pinned.has(segment.index));
  const doomed = new Set(outOfWindow.map((segment) => segment.index));
  let total = segments.reduce((sum, segment) => sum + (doomed.has(segment.index) ? 0 : segment.sizeBytes), 0);
  for (const segment of complete) {
    if (total <= limits.maxBytes) break;
    if (doomed.has(segment.index)) continue;
    if (pinned.has(segment.index)) break;
    doomed.add(segment.index);
    total -= segment.sizeBytes;
  }
  return complete.filter((segment) => doomed.has(segment.index));
}

/** What a save takes: consecutive complete segments, and where they sit in the recording. */
export interface BufferSpan {
  segments: SegmentFile[];
  /** Start of the first segment, seconds from the start of the recording (nominal: index × segment length). */
  startSeconds: number;
  /** Nominal length: segments × segment length (the last one of an ended recording may be shorter). */
  durationSeconds: number;
  /** Lets the pruning delete these segments again. */
  release(): void;
}

export class ReplayBuffer {
  private readonly pinned = new Map<number, number>();
  private ended = false;
  private timer: NodeJS.Timeout | undefined;
  private pruning: Promise<void> = Promise.resolve();

  constructor(
    readonly folder: string,
    readonly limits: BufferLimits,
    private readonly logger?: Logger,
  ) {}

  /** For the segment muxer: `<folder>/segment-%06d.ts`. */
  get pattern(): string {
    return path.join(this.folder, `segment-%06d${SEGMENT_EXTENSION}`);
  }

  async prepare(): Promise<void> {
    await mkdir(this.folder, { recursive: true });
  }

  /** Prunes every second until `remove()`. */
  startPruning(intervalMs = PRUNE_INTERVAL_MS): void {
    this.timer ??= setInterval(() => void this.prune(), intervalMs);
    this.timer.unref();
  }

  /** ffmpeg has ended: every segment on disk is complete. */
  markEnded(): void {
    this.ended = true;
  }

  async segments(): Promise<SegmentFile[]> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const found = names
      .flatMap((name) => {
        const match = SEGMENT_NAME.exec(name);
        return match ? [{ index: Number(match[1]), file: path.join(this.folder, name) }] : [];
      })
      .sort((a, b) => a.index - b.index);
    const newest = found.at(-1)?.index;
    const sized = await Promise.all(
      found.map(async (segment) => {
        const sizeBytes = await stat(segment.file).then(
          (file) => file.size,
          () => undefined,
        );
        return sizeBytes === undefined ? undefined : { ...segment, sizeBytes, complete: this.ended || segment.index !== newest };
      }),
    );
    return sized.filter((segment): segment is SegmentFile => segment !== undefined);
  }

  /** Deletes what falls out of the window or over the size limit; resolves to what was deleted. */
  prune(): Promise<SegmentFile[]> {
    const run = this.pruning.then(async () => {
      const doomed = segmentsToPrune(await this.segments(), this.limits, new Set(this.pinned.keys()));
      const deleted: SegmentFile[] = [];
      for (const segment of doomed) {
        // Windows refuses to delete a file someone still reads; the next round tries again.
        await rm(segment.file, { force: true }).then(
          () => deleted.push(segment),
          (error: unknown) => {
            this.logger?.debug('replay segment not deleted yet', { file: segment.file, error });
          },
        );
      }
      return deleted;
    });
    this.pruning = run.then(
      () => undefined,
      (error: unknown) => this.logger?.warn('replay buffer pruning failed', { folder: this.folder, error }),
    );
    return run;
  }

  /** The segment ffmpeg writes now (the newest on disk), or 0 before the first one exists. */
  async writingIndex(): Promise<number> {
    return (await this.segments()).at(-1)?.index ?? 0;
  }

  /** Resolves once segment `index` is complete, the recording ended, or `timeoutMs` passed (false then). */
  async waitUntilComplete(index: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const segments = await this.segments();
      if (this.ended || segments.some((segment) => segment.index > index)) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, FLUSH_POLL_MS));
    }
  }

  /**
   * Pins and returns the complete segments that cover the last `durationSeconds` up to and
   * including segment `until`: whole segments, so the length is rounded up to the segment length.
   * Less when less is buffered; undefined when nothing is.
   */
  async take(durationSeconds: number, until: number): Promise<BufferSpan | undefined> {
    const complete = (await this.segments()).filter((segment) => segment.complete && segment.index <= until);
    const wanted = Math.max(1, Math.ceil(durationSeconds / this.limits.segmentSeconds));
    const chosen: SegmentFile[] = [];
    for (let position = complete.length - 1; position >= 0 && chosen.length < wanted; position--) {
      const segment = complete[position]!;
      if (chosen.length > 0 && segment.index !== chosen[0]!.index - 1) break; // a hole: keep the newest run
      chosen.unshift(segment);
    }
    if (chosen.length === 0) return undefined;
    for (const segment of chosen) this.pinned.set(segment.index, (this.pinned.get(segment.index) ?? 0) + 1);
    let released = false;
    return {
      segments: chosen,
      startSeconds: chosen[0]!.index * this.limits.segmentSeconds,
      durationSeconds: chosen.length * this.limits.segmentSeconds,
      release: () => {
        if (released) return;
        released = true;
        for (const segment of chosen) {
          const count = (this.pinned.get(segment.index) ?? 1) - 1;
          if (count > 0) this.pinned.set(segment.index, count);
          else this.pinned.delete(segment.index);
        }
      },
    };
  }

  /** Stops pruning and deletes the folder with every segment. */
  async remove(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.pruning;
    await rm(this.folder, { recursive: true, force: true, maxRetries: 3 });
  }
}

export interface ConcatRequest {
  ffmpegPath: string;
  segments: readonly SegmentFile[];
  /** The MP4 to write; it appears under this name only once complete. */
  target: string;
  /** Names of the audio tracks, which MPEG-TS segments do not carry. */
  audioTrackNames?: readonly string[];
  logger?: Logger;
}

/**
 * Longest `concat:` URL a command line takes on every platform (Windows allows 32,767 characters in all):
 * at ~100 characters a path, several minutes of 2 s segments.
 */
const MAX_JOINED_URL_LENGTH = 16 * 1024;

/**
 * The segments as one input of the concat protocol (`concat:a.ts|b.ts`): MPEG-TS segments of one encode join
 * byte by byte into one stream with continuous timestamps. Undefined when a path holds the protocol's
 * separator or the URL would be too long for a command line.
 */
export function joinedSegmentsUrl(files: readonly string[]): string | undefined {
  if (files.some((file) => file.includes('|'))) return undefined;
  const url = `concat:${files.join('|')}`;
  return url.length <= MAX_JOINED_URL_LENGTH ? url : undefined;
}

/**
 * Joins segments by stream copy (no re-encode) into an MP4 written under a temporary name and renamed
 * when complete. Read as one byte stream (`joinedSegmentsUrl`) where it can be: the concat demuxer
 * opens and probes each segment, five times the cost of the copy itself for 15 small segments (~150
 * against ~35 ms); else with a concat list, which sits beside the segments.
 */
/** Resolves to the saved file: `target`, or its first free ` (n)` variant (never over another file). */
export async function concatSegments({ ffmpegPath, segments, target, audioTrackNames = [], logger }: ConcatRequest): Promise<string> {
  if (segments.length === 0) throw new Error('There are no segments to save');
  const partial = tempOutputPath(target);
  await mkdir(path.dirname(target), { recursive: true });
  const { input, list } = await segmentsInput(segments);
  try {
    const run = FfmpegProcess.start({
      ffmpegPath,
      args: [
        ...input,
        '-map',
        '0',
        '-c',
        'copy',
        '-bsf:a',
        'aac_adtstoasc',
        ...audioTrackNameArgs(audioTrackNames),
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        '-y',
        partial,
      ],
      outputs: [partial],
      ...(logger ? { logger } : {}),
    });
    const exit = await run.exited;
    if (!exit.succeeded) throw new Error(`ffmpeg could not join the replay segments: ${exit.errorText}`);
    return await moveFile(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    if (list) await rm(list, { force: true });
  }
}

/** The input options for the segments: their joined URL, else a concat list written beside them (removed by the caller). */
async function segmentsInput(segments: readonly SegmentFile[]): Promise<{ input: string[]; list?: string }> {
  const joined = joinedSegmentsUrl(segments.map((segment) => segment.file));
  if (joined) return { input: fileInput(joined, SEGMENT_FORMAT) };
  const list = path.join(path.dirname(segments[0]!.file), `concat-${randomUUID()}.ffconcat`);
  await writeFile(list, `ffconcat version 1.0\n${segments.map((segment) => `file ${quoteConcatPath(segment.file)}\n`).join('')}`);
  return { input: ['-safe', '0', ...fileInput(list, 'concat')], list };
}

/** A path for a concat list line: single-quoted, with `'` written as `'\''`. */
export function quoteConcatPath(file: string): string {
  return `'${file.replaceAll('\\', '/').replaceAll("'", "'\\''")}'`;
}
