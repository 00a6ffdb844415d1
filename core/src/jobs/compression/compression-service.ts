// CompressVideo: re-encodes a library video beside the original to make it smaller. HEVC where the
// build has an encoder for it (hardware when the clip encoder setting says `gpu`, else x265), H.264
// (x264) otherwise; quality from the clip settings (`clipQualityCpu` as CRF, `clipQualityGpu` as CQ,
// `clipPreset` for the software encoders); every audio track copied as it is, names kept. A result
// that is not smaller is thrown away (`skipped`). Otherwise `removeOriginalAfterCompression` decides:
// on, the compressed file replaces the item's video (same item, `compressed: true`); off (the default),
// both are kept and the compressed file is a new item of the same kind with `compressed: true`.
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../../protocol/refusal.js';
import { FfmpegToolbox } from '../../media/ffmpeg-toolbox.js';
import { fileInput } from '../../media/file-input.js';
import { percentOf, produceInto, type JobOutput } from '../../media/job-output.js';
import { probeMedia, type ProbeResult } from '../../media/probe.js';
import { audioTrackNameArgs } from '../../media/session-encoding.js';
import { encoderArgs, ENCODER_PROFILES, type EncoderProfile } from '../../media/video-encoder.js';
import { moveFile } from '../../media/move-file.js';
import type { Codec, EventContent, Settings } from '../../protocol/index.js';
import { Logger } from '../../support/logger.js';
import { pathKey } from '../../support/paths.js';
import { EVENT_SINK, type EventSink } from '../../protocol/event-sink.js';
import { ContentIngest } from '../../library/content-ingest.js';
import { cancelledEnd } from '../job-end.js';
import { outputReference } from '../../library/output-reference.js';
import { JobRunner, risingProgress, type Job } from '../job-runner.js';
import { ContentItemQueue } from '../../library/content-item-queue.js';
import { ContentLibrary, type ContentRecord } from '../../library/content-library.js';
import { ContentLocator } from '../../library/content-locator.js';
import { RecorderService } from '../../recording/recorder-service.js';
import { SettingsStore } from '../../settings/settings-store.js';

export type CompressionOutcome =
  | { status: 'done'; item: ContentRecord; sizeBytes: number; originalBytes: number }
  | { status: 'skipped'; sizeBytes: number; originalBytes: number }
  | { status: 'error'; message: string }
  | { status: 'cancelled'; message: string };

/** The encoder a compression uses and its output options for the video stream. */
export interface CompressionEncoder {
  entry: EncoderProfile;
  args: string[];
}

type CompressionSettings = Pick<Settings, 'clipEncoder' | 'clipQualityCpu' | 'clipQualityGpu' | 'clipPreset'>;

/**
 * HEVC first (it is the smaller format at the same quality): a hardware HEVC encoder when the clip
 * encoder is `gpu`, else x265, else a hardware one; H.264 (x264) where the build has no HEVC encoder.
 */
export function compressionEncoder(settings: CompressionSettings, available: readonly Codec[], frameRate: number): CompressionEncoder {
  const has = (entry: EncoderProfile) => available.some((codec) => codec.internalEncoderId === entry.id);
  const hardwareHevc = ENCODER_PROFILES.find((entry) => entry.format === 'hevc' && entry.hardware && has(entry));
  const x265 = ENCODER_PROFILES.find((entry) => entry.id === 'libx265' && has(entry));
  const hardware = (entry: EncoderProfile): CompressionEncoder => ({
    entry,
    args: [
      ...encoderArgs(entry, {
        encoder: 'gpu',
        codec: null,
        rateControl: 'CQP',
        crfValue: settings.clipQualityGpu,
        cqLevel: settings.clipQualityGpu,
        bitrate: 10,
        minBitrate: 5,
        maxBitrate: 20,
        frameRate: frameRate > 0 ? frameRate : 30,
      }),
      '-tag:v',
      'hvc1',
    ],
  });
  if (settings.clipEncoder === 'gpu' && hardwareHevc) return hardware(hardwareHevc);
  if (x265) {
    return {
      entry: x265,
      args: [
        '-c:v',
        'libx265',
        '-preset',
        settings.clipPreset,
        '-crf',
        String(settings.clipQualityCpu),
        '-pix_fmt',
        'yuv420p',
        '-x265-params',
        'log-level=error',
        '-tag:v',
        'hvc1',
      ],
    };
  }
  if (hardwareHevc) return hardware(hardwareHevc);
  return {
    entry: ENCODER_PROFILES.find((entry) => entry.id === 'libx264')!,
    args: ['-c:v', 'libx264', '-preset', settings.clipPreset, '-crf', String(settings.clipQualityCpu), '-pix_fmt', 'yuv420p'],
  };
}

/** The ffmpeg arguments of one compression: first video stream re-encoded, every audio track copied and named. */
export function compressionArgs(source: string, target: string, probed: ProbeResult, video: readonly string[]): string[] {
  const audio = probed.streams.filter((stream) => stream.type === 'audio');
  const names = audio.every((stream) => stream.title !== undefined) ? audio.map((stream) => stream.title!) : [];
  return [
    ...fileInput(source),
    '-map',
    '0:v:0',
    '-map',
    '0:a?',
    '-map_metadata',
    '0',
    ...video,
    '-c:a',
    'copy',
    ...audioTrackNameArgs(names),
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    '-y',
    target,
  ];
}

const NOT_SMALLER = 'Compressed file was not smaller';
/** What the name of a compressed copy kept beside its original ends with, as the reference names it. */
const COMPRESSED_SUFFIX = '_compressed';

class NotSmaller extends Error {
  constructor(readonly sizeBytes: number) {
    super(NOT_SMALLER);
  }
}

@injectable()
export class CompressionService {
  private readonly logger: Logger;
  /** The running jobs by the `filePath` of their `CompressionProgress`, which `CancelCompression` names. */
  private readonly running = new Map<string, Job>();

  constructor(
    private readonly settings: SettingsStore,
    private readonly library: ContentLibrary,
    private readonly locator: ContentLocator,
    private readonly toolbox: FfmpegToolbox,
    private readonly recorder: RecorderService,
    private readonly ingest: ContentIngest,
    private readonly runner: JobRunner,
    private readonly items: ContentItemQueue,
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('compression');
  }

  /** Whether a compression of that file (absolute path) runs. */
  isCompressing(file: string): boolean {
    return this.runner.find('compression', pathKey(file)) !== undefined;
  }

  /**
   * Refuses (`CommandError`) paths outside the library, the active recording's file, a file already
   * being compressed; then runs the job, whose outcome is reported through `CompressionProgress`.
   */
  async compress(filePath: string): Promise<CompressionOutcome> {
    const item = await this.locator.byFilePath(filePath);
    const source = await this.locator.insideContent(item.filePath);
    if (this.recorder.current?.isWriting(source)) {
      throw new CommandError('NotAllowed', `${item.filePath} is being recorded: stop the recording before compressing it.`);
    }
    if (this.isCompressing(source)) throw new CommandError('NotAllowed', `${item.filePath} is already being compressed.`);
    const spec = { kind: 'compression', operation: 'Compressing the video', key: pathKey(source) } as const;
    const { job, done } = this.runner.start(spec, (started) => this.run(started, item, source));
    this.running.set(item.filePath, job);
    return done.finally(() => this.running.delete(item.filePath));
  }

  /** `CancelCompression`: stops the encode and removes its temporary file; the original is left as it was. */
  async cancel(filePath: string): Promise<void> {
    const job = this.running.get(filePath);
    if (!job) throw new CommandError('NotFound', `${filePath} is not being compressed: the compression may have finished already.`);
    await this.runner.cancel(job);
  }

  private async run(job: Job, item: ContentRecord, source: string): Promise<CompressionOutcome> {
    const { tools } = job;
    const report = (content: Omit<EventContent<'CompressionProgress'>, 'filePath'>) =>
      this.events.send('CompressionProgress', { filePath: item.filePath, ...content });
    report({ progress: 0, status: 'compressing' });
    const began = Date.now();
    try {
      const originalBytes = (await stat(source)).size;
      const probed = await probeMedia(tools.ffprobe.path, source);
      const video = probed.streams.find((stream) => stream.type === 'video');
      if (!video) throw new Error(`${path.basename(source)} has no video stream`);
      const encoder = compressionEncoder(this.settings.current, this.toolbox.codecs, video.frameRate ?? 0);
      const removeOriginal = this.settings.current.removeOriginalAfterCompression;
      const parsed = path.parse(source);
      // `<name>_compressed.mp4` beside the original; produceInto takes ` (n)` of it when taken, never writing over a file.
      const planned = path.join(parsed.dir, `${parsed.name}${removeOriginal ? '' : COMPRESSED_SUFFIX}.mp4`);
      const durationSeconds = probed.durationSeconds ?? 0;
      let output: JobOutput<number>;
      try {
        output = await produceInto(
          planned,
          async (temp) => {
            await this.encode(job, compressionArgs(source, temp, probed, encoder.args), temp, durationSeconds, (progress) =>
              report({ progress, status: 'compressing' }),
            );
            const size = (await stat(temp)).size;
            if (size >= originalBytes) throw new NotSmaller(size);
            job.throwIfCancelled(); // from here on the job completes: the original may be replaced
            return size;
          },
          removeOriginal ? (temp, size) => this.replace(item.id, temp, size) : undefined,
        );
      } catch (error) {
        if (!(error instanceof NotSmaller)) throw error;
        this.logger.info('compression skipped: not smaller', { file: source, originalBytes, sizeBytes: error.sizeBytes });
        report({ progress: 100, status: 'skipped', message: NOT_SMALLER });
        return { status: 'skipped', sizeBytes: error.sizeBytes, originalBytes };
      }
      const { value: sizeBytes, filePath: target } = output;
      const result = removeOriginal ? (this.library.get(item.id) ?? item) : await this.keepBoth(item, target, job);
      this.logger.info('video compressed', {
        file: source,
        target,
        encoder: encoder.entry.id,
        originalBytes,
        sizeBytes,
        removeOriginal,
        tookMs: Date.now() - began,
      });
      report({ progress: 100, status: 'done', output: outputReference(result) });
      return { status: 'done', item: result, sizeBytes, originalBytes };
    } catch (error) {
      if (job.cancelled) {
        this.logger.info('compression cancelled', { file: source });
        const end = cancelledEnd('Compression');
        report(end);
        return { status: 'cancelled', message: end.message };
      }
      const message = `Could not compress ${path.basename(source)}: ${error instanceof Error ? error.message : String(error)}`;
      this.logger.warn('compression failed', { file: source, error });
      report({ progress: -1, status: 'error', message });
      return { status: 'error', message };
    }
  }

  private async encode(
    job: Job,
    args: string[],
    temp: string,
    durationSeconds: number,
    progress: (percent: number) => void,
  ): Promise<void> {
    const rising = risingProgress(progress);
    await job.ffmpeg({
      args,
      outputs: [temp],
      logger: this.logger,
      onPosition: (seconds) => rising(percentOf(seconds, durationSeconds)),
      failure: (exit) => exit.errorText || `ffmpeg exited with code ${String(exit.code)}`,
    }).finished;
  }

  /**
   * The compressed file becomes the item's video; the original goes. Queued with the item's other
   * edits and applied to where the item is now: it may have been renamed (or deleted) meanwhile.
   * Resolves to the compressed file's path.
   */
  private replace(id: string, temp: string, sizeBytes: number): Promise<string> {
    return this.items.run(id, async () => {
      const item = this.library.get(id);
      if (!item) throw new Error('it was deleted while it was being compressed');
      const original = item.filePath;
      // An .mp4 is replaced in place: the one file this job is asked to replace; another kind gets an .mp4 beside it.
      const inPlace = path.extname(original).toLowerCase() === '.mp4';
      const target = inPlace ? original : await moveFile(temp, `${original.slice(0, original.length - path.extname(original).length)}.mp4`);
      if (inPlace) await rename(temp, original);
      await this.library.update(id, { ...(inPlace ? {} : { filePath: target }), sizeBytes, compressed: true });
      if (!inPlace) await rm(original, { force: true });
      // Same picture and the same (copied) sound: thumbnail and waveform stay valid.
      return target;
    });
  }

  /** The compressed file is a new item of the same kind, with the original's game, title and bookmarks. */
  private keepBoth(item: ContentRecord, target: string, { tools }: Job): Promise<ContentRecord> {
    return this.ingest.add({
      file: target,
      type: item.type,
      ownsFile: true,
      meta: {
        game: item.game,
        title: item.title,
        bookmarks: item.bookmarks,
        createdAt: item.createdAt,
        gameDatabaseId: item.gameDatabaseId,
        audioTrackNames: item.audioTrackNames,
        isImported: item.isImported,
        compressed: true,
        gameExePath: item.gameExePath ?? null,
      },
      tools,
    });
  }
}
