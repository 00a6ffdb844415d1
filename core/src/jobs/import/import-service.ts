// ImportFile: external videos copied into the library as Sessions or Replay Buffers. The files come
// from the command (`FilePaths`, an extension for headless and web frontends) or a native multi-file
// picker. When they would take the content folder over the storage limit, a `StorageWarning` holds the
// import until the user confirms. Each file is probed first (a file ffprobe cannot read as a video is
// a per-file error, the others go on), copied — never moved — into
// `<contentFolder>/<TypeFolder>/Imported/` under a temporary name, then added with thumbnail and
// waveform, `isImported: true` and the source's modification time as its creation time.
import { randomInt } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../../protocol/refusal.js';
import { FfmpegToolbox } from '../../media/ffmpeg-toolbox.js';
import { percentOf, produceInto } from '../../media/job-output.js';
import { probeMedia } from '../../media/probe.js';
import { PickerUnavailableError, type PickOptions } from '../../platform/native-picker.js';
import type { CommandParameters, ContentType, EventContent } from '../../protocol/index.js';
import { Logger } from '../../support/logger.js';
import { EVENT_SINK, type EventSink } from '../../protocol/event-sink.js';
import { ContentIngest } from '../../library/content-ingest.js';
import { cancelledEnd } from '../job-end.js';
import { outputReference } from '../../library/output-reference.js';
import { JobRunner, risingProgress, type Job } from '../job-runner.js';
import { ContentLibrary, type ContentRecord } from '../../library/content-library.js';
import { Notifier } from '../../notices/notifier.js';
import { StorageMonitor, toGb } from '../../storage/storage-monitor.js';
import { StorageWarnings } from '../../storage/storage-warnings.js';

/** Shows a file picker that allows several files; resolves to the chosen paths, [] on cancel; throws `PickerUnavailableError`. */
export type MultiFilePicker = (options: PickOptions) => Promise<string[]>;
export const MULTI_FILE_PICKER = Symbol('MultiFilePicker');

/** The game (and game folder) of imported videos: Keyframe does not know which game they show. */
export const IMPORTED_GAME = 'Imported';

const IMPORTING = 'Importing videos';

const SECTIONS: Readonly<Record<string, ContentType>> = { sessions: 'Session', replayBuffer: 'Buffer' };

const PICKER_OPTIONS: PickOptions = { title: 'Select videos to import', patterns: ['*.mp4', '*.MP4', '*.mov', '*.mkv'], multiple: true };

export interface ImportSummary {
  id: number;
  imported: ContentRecord[];
  failed: { file: string; message: string }[];
}

/** What `importFiles` did: ran the import, holds it behind a storage warning, or nothing (picker cancelled). */
export type ImportStart =
  { status: 'imported'; summary: ImportSummary } | { status: 'waiting'; warningId: string } | { status: 'cancelled' };

@injectable()
export class ImportService {
  private readonly logger: Logger;
  /** The running imports by their `ImportProgress` id, which `CancelImport` names. */
  private readonly running = new Map<number, Job>();

  constructor(
    private readonly library: ContentLibrary,
    private readonly ingest: ContentIngest,
    private readonly runner: JobRunner,
    private readonly toolbox: FfmpegToolbox,
    private readonly storage: StorageMonitor,
    private readonly warnings: StorageWarnings,
    private readonly notifier: Notifier,
    @inject(MULTI_FILE_PICKER) private readonly pick: MultiFilePicker,
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('import');
  }

  /** Refusals are `CommandError`s; what happens to each file is reported through `ImportProgress`. */
  async importFiles({ sectionId, FilePaths }: CommandParameters<'ImportFile'>): Promise<ImportStart> {
    const type = Object.hasOwn(SECTIONS, sectionId) ? SECTIONS[sectionId] : undefined;
    if (!type) {
      this.notifier.showModal({
        title: 'Import Error',
        description: `Videos can be imported into Full Sessions ("sessions") or Replay Buffers ("replayBuffer"), not "${String(sectionId)}".`,
        type: 'error',
      });
      throw new CommandError('InvalidParameters', `Unknown sectionId "${String(sectionId)}": use "sessions" or "replayBuffer".`);
    }
    const files = FilePaths ?? (await this.pickFiles());
    if (files.length === 0) return { status: 'cancelled' };
    const relative = files.find((file) => !path.isAbsolute(file));
    if (relative !== undefined) throw new CommandError('InvalidParameters', `FilePaths must be absolute paths, not ${relative}.`);
    // Refused before anything is asked: the job itself starts later when a storage warning holds it.
    this.toolbox.requireFfmpeg(IMPORTING);

    const incoming = (
      await Promise.all(
        files.map((file) =>
          stat(file).then(
            (info) => (info.isFile() ? info.size : 0),
            () => 0,
          ),
        ),
      )
    ).reduce((sum, size) => sum + size, 0);
    const used = await this.storage.measureContentFolder();
    const limit = this.storage.limitBytes;
    if (used + incoming > limit) {
      const warningId = this.warnings.warn({
        title: 'Storage limit reached',
        description:
          `Importing ${files.length === 1 ? 'this video' : `these ${files.length} videos`} (${toGb(incoming)} GB) takes your content ` +
          `folder to ${toGb(used + incoming)} GB, above your storage limit of ${toGb(limit)} GB. To get back under it, Keyframe deletes ` +
          'the oldest Full Sessions and Replay Buffers once you have allowed it to (it asks first).',
        confirmText: 'Import anyway',
        action: 'import',
        onConfirm: async () => {
          await this.start(type, files);
        },
      });
      this.logger.info('import waits for the storage warning', { warningId, files: files.length, incoming, used, limit });
      return { status: 'waiting', warningId };
    }
    return { status: 'imported', summary: await this.start(type, files) };
  }

  private start(type: ContentType, files: readonly string[]): Promise<ImportSummary> {
    const id = randomInt(1, 2 ** 31 - 1);
    const { job, done } = this.runner.start({ kind: 'import', operation: IMPORTING }, (started) => this.run(started, id, type, files));
    this.running.set(id, job);
    return done.finally(() => this.running.delete(id));
  }

  /** `CancelImport`: stops the copy under way and removes it; files imported before stay. The job sends its cancelled end. */
  async cancel(id: number): Promise<void> {
    const job = this.running.get(id);
    if (!job) throw new CommandError('NotFound', `There is no import running with the id ${id}: it may have finished already.`);
    await this.runner.cancel(job);
  }

  private async pickFiles(): Promise<string[]> {
    try {
      return await this.pick(PICKER_OPTIONS);
    } catch (error) {
      if (!(error instanceof PickerUnavailableError)) throw error;
      this.notifier.showModal({
        title: 'No file picker available',
        description:
          'Keyframe could not open a file picker on this machine. Install zenity or kdialog, ' +
          'or give the paths of the videos where the frontend offers it (ImportFile with FilePaths).',
        type: 'error',
      });
      throw new CommandError('Unavailable', `${error.message}.`);
    }
  }

  /**
   * Imports the files one after another; a failure of one is reported and the next goes on. A cancel stops
   * the file being copied (its copy removed) and ends the import; the files imported before it stay.
   */
  private async run(job: Job, id: number, type: ContentType, files: readonly string[]): Promise<ImportSummary> {
    const totalFiles = files.length;
    const summary: ImportSummary = { id, imported: [], failed: [] };
    const send = (content: Omit<EventContent<'ImportProgress'>, 'id' | 'totalFiles'>) =>
      this.events.send('ImportProgress', { id, totalFiles, ...content });
    this.logger.info('import started', { id, type, files: totalFiles });
    for (const [currentFileIndex, file] of files.entries()) {
      if (job.cancelled) break;
      const fileName = path.parse(file).name;
      send({ fileName, progress: 0, status: 'importing', currentFileIndex, message: 'Reading the video' });
      try {
        const item = await this.importOne(job, file, type, (progress, message) =>
          send({ fileName, progress, status: 'importing', currentFileIndex, message }),
        );
        summary.imported.push(item);
        send({ fileName, progress: 100, status: 'importing', currentFileIndex, output: outputReference(item) });
      } catch (error) {
        if (job.cancelled) break;
        const message = `Could not import ${path.basename(file)}: ${error instanceof Error ? error.message : String(error)}`;
        this.logger.warn('file not imported', { id, file, error: message });
        summary.failed.push({ file, message });
        send({ fileName, progress: -1, status: 'error', currentFileIndex, message });
      }
    }
    if (job.cancelled) {
      const done = summary.imported.length;
      this.logger.info('import cancelled', { id, imported: done });
      const end = cancelledEnd('Import');
      const message = done === 0 ? end.message : `${end.message}: ${done} of ${totalFiles} files were imported before`;
      send({ fileName: 'Cancelled', currentFileIndex: Math.min(done + summary.failed.length, totalFiles - 1), ...end, message });
      return summary;
    }
    const succeeded = summary.imported.length > 0;
    send({
      fileName: succeeded ? 'Finished' : 'Failed',
      progress: 100,
      status: succeeded ? 'done' : 'error',
      currentFileIndex: totalFiles - 1,
      message: `Completed: ${summary.imported.length} successful, ${summary.failed.length} failed`,
    });
    this.logger.info('import finished', { id, imported: summary.imported.length, failed: summary.failed.length });
    return summary;
  }

  /** Reports the copy as 0–90 % and the thumbnail and waveform, which read the whole sound, as 90. */
  private async importOne(
    job: Job,
    file: string,
    type: ContentType,
    progress: (percent: number, message: string) => void,
  ): Promise<ContentRecord> {
    const { tools } = job;
    const info = await stat(file).catch(() => undefined);
    if (!info) throw new Error('there is no file at that path');
    if (!info.isFile()) throw new Error('it is not a file');
    const probed = await probeMedia(tools.ffprobe.path, file).catch(() => undefined);
    if (!probed || !probed.streams.some((stream) => stream.type === 'video' && stream.width !== undefined)) {
      throw new Error('it is not a video file Keyframe can read');
    }
    const parsed = path.parse(file);
    const folder = path.dirname(this.library.contentPath(type, IMPORTED_GAME, parsed.base));
    const { filePath: target } = await produceInto(path.join(folder, `${parsed.name}${parsed.ext || '.mp4'}`), (temp) =>
      copyWithProgress(file, temp, info.size, job.signal, (percent) => progress(Math.floor(percent * COPY_SHARE), 'Copying')).then(() =>
        job.throwIfCancelled(),
      ),
    );
    progress(Math.round(100 * COPY_SHARE), 'Making the thumbnail and waveform');
    const audio = probed.streams.filter((stream) => stream.type === 'audio');
    const names = audio.length >= 2 && audio.every((stream) => stream.title !== undefined) ? audio.map((stream) => stream.title!) : null;
    // The copy is the source's bytes: the source's probe holds for it.
    return this.ingest.add({
      file: target,
      type,
      ownsFile: true,
      probed,
      meta: { game: IMPORTED_GAME, createdAt: info.mtime, audioTrackNames: names, isImported: true },
      tools,
    });
  }
}

/** The part of a file's progress that is its copy; the rest is its thumbnail and waveform. */
const COPY_SHARE = 0.9;

/** Copies `source` to `target` (the source is only read), reporting whole percents below 100; `signal` stops it. */
async function copyWithProgress(
  source: string,
  target: string,
  totalBytes: number,
  signal: AbortSignal,
  progress: (percent: number) => void,
): Promise<void> {
  let copied = 0;
  const rising = risingProgress(progress);
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      copied += chunk.length;
      rising(percentOf(copied, totalBytes));
      done(null, chunk);
    },
  });
  await pipeline(createReadStream(source), counter, createWriteStream(target), { signal });
}
