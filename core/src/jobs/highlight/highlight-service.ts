// CreateAiClip: a Highlight item made from a session's best moments. The moments are its positive
// bookmarks (Kill, Assist, Goal, each with its own window); a session without them uses its loudest
// half-seconds instead (padded by `highlightPaddingBefore`/`After`), so there is always something to
// show when the session has sound. The chosen windows are cut and joined in one ffmpeg run that
// opens the source once per window with an input-side seek (`-ss`/`-t`: ffmpeg seeks to the keyframe
// before the window and drops the frames and samples before its start, so the cut is exact and only
// the windows are decoded, not the session up to the last one), then concat, re-encoded with x264 at
// the clip quality settings; written under a temporary name and renamed into
// `<contentFolder>/Highlights/<game>/` when complete; the bookmarks inside the windows come along, re-based onto the highlight's timeline.
// With `autoGenerateHighlights` on, a session that stops with positive bookmarks gets one at once.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../../protocol/refusal.js';
import { fileInput } from '../../media/file-input.js';
import {
  bookmarkMoments,
  DEFAULT_PEAKS,
  isPositiveBookmark,
  loudestMoments,
  planHighlight,
  plannedSeconds,
  rebaseTime,
  type PlannedWindow,
} from '../../media/highlight-plan.js';
import { percentOf, produceInto } from '../../media/job-output.js';
import { measureLoudness } from '../../media/loudness.js';
import { probeMedia, type ProbeResult } from '../../media/probe.js';
import { audioTrackNameArgs } from '../../media/session-encoding.js';
import type { EventContent, Settings } from '../../protocol/index.js';
import { Logger } from '../../support/logger.js';
import { EVENT_SINK, type EventSink } from '../../protocol/event-sink.js';
import { ContentIngest } from '../../library/content-ingest.js';
import { cancelledEnd } from '../job-end.js';
import { outputReference } from '../../library/output-reference.js';
import { JobRunner, risingProgress, type Job } from '../job-runner.js';
import { byTime, toContentItem } from '../../library/content-item.js';
import { ContentLibrary, type ContentBookmark, type ContentRecord } from '../../library/content-library.js';
import { ContentLocator } from '../../library/content-locator.js';
import { fileStamp, RecorderService } from '../../recording/recorder-service.js';
import { SettingsStore } from '../../settings/settings-store.js';

export type HighlightOutcome =
  | { status: 'done'; item: ContentRecord; windows: PlannedWindow[]; source: 'bookmarks' | 'audio' }
  | { status: 'error'; message: string }
  | { status: 'cancelled'; message: string };

export const NO_MOMENTS = 'No highlight moments found in this session';

type ClipQuality = Pick<Settings, 'clipPreset' | 'clipQualityCpu' | 'clipFps' | 'clipAudioQuality'>;

/**
 * The ffmpeg arguments that cut `windows` out of `source` and join them, every audio track kept: one
 * input per window, seeked to it, so the run decodes the windows (from the keyframe before each) only.
 */
export function highlightArgs(
  source: string,
  target: string,
  windows: readonly PlannedWindow[],
  probed: ProbeResult,
  quality: ClipQuality,
): string[] {
  const video = probed.streams.find((stream) => stream.type === 'video');
  const audioTracks = probed.streams.filter((stream) => stream.type === 'audio');
  const time = (seconds: number) => seconds.toFixed(3);
  const parts: string[] = [];
  const inputs: string[] = [];
  windows.forEach((_, index) => {
    parts.push(`[${index}:v:0]setpts=PTS-STARTPTS[v${index}]`);
    inputs.push(`[v${index}]`);
    audioTracks.forEach((_, track) => {
      parts.push(`[${index}:a:${track}]asetpts=PTS-STARTPTS[a${index}_${track}]`);
      inputs.push(`[a${index}_${track}]`);
    });
  });
  const sourceRate = video?.frameRate ?? 0;
  const rate = quality.clipFps > 0 && (sourceRate === 0 || quality.clipFps < sourceRate) ? `,fps=${quality.clipFps}` : '';
  const audioOut = audioTracks.map((_, track) => `[ao${track}]`).join('');
  parts.push(`${inputs.join('')}concat=n=${windows.length}:v=1:a=${audioTracks.length}[vc]${audioOut}`, `[vc]format=yuv420p${rate}[vo]`);
  const names = audioTracks.every((stream) => stream.title !== undefined) ? audioTracks.map((stream) => stream.title!) : [];
  return [
    ...windows.flatMap((window) => ['-ss', time(window.start), '-t', time(window.end - window.start), ...fileInput(source)]),
    '-filter_complex',
    parts.join(';'),
    '-map',
    '[vo]',
    ...audioTracks.flatMap((_, track) => ['-map', `[ao${track}]`]),
    '-c:v',
    'libx264',
    '-preset',
    quality.clipPreset,
    '-crf',
    String(quality.clipQualityCpu),
    ...(audioTracks.length > 0 ? ['-c:a', 'aac', '-b:a', quality.clipAudioQuality] : []),
    ...audioTrackNameArgs(names),
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    '-y',
    target,
  ];
}

/** The source's bookmarks that lie in the windows, on the highlight's timeline, by time. */
export function rebaseBookmarks(bookmarks: readonly ContentBookmark[], windows: readonly PlannedWindow[]): ContentBookmark[] {
  return bookmarks
    .flatMap((bookmark) => {
      const rebased = rebaseTime(windows, bookmark.seconds);
      return rebased === undefined ? [] : [{ ...bookmark, seconds: rebased }];
    })
    .sort(byTime);
}

@injectable()
export class HighlightService {
  private readonly logger: Logger;
  /** The running jobs by their `AiProgress` id, which `CancelAiClip` names. */
  private readonly running = new Map<string, Job>();

  constructor(
    private readonly settings: SettingsStore,
    private readonly locator: ContentLocator,
    private readonly library: ContentLibrary,
    private readonly ingest: ContentIngest,
    private readonly runner: JobRunner,
    recorder: RecorderService,
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('highlights');
    recorder.onStopped((_recording, item) => this.autoHighlight(item));
  }

  /** `CreateAiClip`: refuses an unknown name, a source already being processed, a missing engine; then runs the job. */
  async createFor(fileName: string): Promise<HighlightOutcome> {
    return this.create(this.locator.byAnyFileName(fileName));
  }

  async create(item: ContentRecord): Promise<HighlightOutcome> {
    if (this.runner.find('highlight', item.id))
      throw new CommandError('NotAllowed', `A highlight of "${item.fileName}" is already being made.`);
    const id = randomUUID();
    const { job, done } = this.runner.start({ kind: 'highlight', operation: 'Making the highlight', key: item.id }, (started) =>
      this.run(started, id, item),
    );
    this.running.set(id, job);
    return done.finally(() => this.running.delete(id));
  }

  /** `CancelAiClip`: stops the job's ffmpeg and removes what it wrote; the job then sends its cancelled `AiProgress`. */
  async cancel(id: string): Promise<void> {
    const job = this.running.get(id);
    if (!job) throw new CommandError('NotFound', `There is no highlight being made with the id ${id}: it may have finished already.`);
    await this.runner.cancel(job);
  }

  private autoHighlight(item: ContentRecord | undefined): void {
    if (!item || item.type !== 'Session' || !this.settings.current.autoGenerateHighlights) return;
    if (!item.bookmarks.some(isPositiveBookmark)) return;
    this.logger.info('automatic highlight', { id: item.id, file: item.filePath });
    this.create(item).catch((error: unknown) => this.logger.warn('automatic highlight not started', { id: item.id, error }));
  }

  private async run(job: Job, id: string, item: ContentRecord): Promise<HighlightOutcome> {
    const { tools } = job;
    const report = (content: Omit<EventContent<'AiProgress'>, 'id' | 'content'>) =>
      this.events.send('AiProgress', { id, ...content, content: toContentItem(item) });
    const began = Date.now();
    report({ progress: 0, status: 'processing', message: 'Looking for the best moments' });
    try {
      const probed = await probeMedia(tools.ffprobe.path, item.filePath).catch((error: unknown) => {
        throw new Error(`Source video not found: ${(error as Error).message}`);
      });
      const durationSeconds = probed.durationSeconds ?? item.durationSeconds;
      const { windows, source } = await this.choose(item, job, durationSeconds);
      job.throwIfCancelled();
      if (windows.length === 0) {
        report({ progress: -1, status: 'error', message: NO_MOMENTS });
        return { status: 'error', message: NO_MOMENTS };
      }
      const moments = windows.reduce((sum, window) => sum + window.moments.length, 0);
      report({ progress: 0, status: 'processing', message: `Found ${moments} ${moments === 1 ? 'moment' : 'moments'}` });
      report({ progress: 10, status: 'processing', message: 'Extracting clips...' });
      const planned = this.library.contentPath('Highlight', item.game, `${fileStamp(new Date())}.mp4`);
      const total = plannedSeconds(windows);
      let done = 0;
      const extracting = risingProgress((percent) => {
        report({ progress: percent, status: 'processing', message: `Extracting clip ${clipAt(windows, done)} of ${windows.length}` });
      }, 10);
      const { filePath: target } = await produceInto(planned, async (temp) => {
        await job.ffmpeg({
          args: highlightArgs(item.filePath, temp, windows, probed, this.settings.current),
          outputs: [temp],
          logger: this.logger,
          onPosition: (seconds) => {
            done = seconds;
            extracting(10 + Math.floor(percentOf(seconds, total) * 0.8));
          },
          failure: (exit) => `Failed to create highlight: ${exit.errorText || `ffmpeg exited with code ${String(exit.code)}`}`,
        }).finished;
        job.throwIfCancelled(); // once the file is placed the job completes
      });
      report({ progress: 92, status: 'processing', message: 'Creating metadata...' });
      const output = await this.ingest.probe(target, tools).catch(async (error: unknown) => {
        await rm(target, { force: true }); // no video the library does not list
        throw error;
      });
      report({ progress: 95, status: 'processing', message: 'Creating thumbnail and waveform...' });
      const highlight = await this.ingest.add({
        file: target,
        type: 'Highlight',
        ownsFile: true,
        probed: output,
        meta: {
          game: item.game,
          durationSeconds: output.durationSeconds ?? total,
          title: item.title,
          bookmarks: rebaseBookmarks(item.bookmarks, windows),
          gameDatabaseId: item.gameDatabaseId,
          audioTrackNames: item.audioTrackNames,
          gameExePath: item.gameExePath ?? null,
        },
        tools,
      });
      this.logger.info('highlight made', {
        source: item.filePath,
        target,
        windows: windows.length,
        seconds: total,
        from: source,
        tookMs: Date.now() - began,
      });
      report({ progress: 100, status: 'done', message: 'Done', output: outputReference(highlight) });
      return { status: 'done', item: highlight, windows, source };
    } catch (error) {
      if (job.cancelled) {
        this.logger.info('highlight cancelled', { source: item.filePath });
        const end = cancelledEnd('Highlight');
        report(end);
        return { status: 'cancelled', message: end.message };
      }
      const message = `Error: ${error instanceof Error ? error.message : String(error)}`;
      this.logger.warn('highlight failed', { source: item.filePath, error });
      report({ progress: -1, status: 'error', message });
      return { status: 'error', message };
    }
  }

  /** Windows from the positive bookmarks, else from the loudest moments. */
  private async choose(
    item: ContentRecord,
    { tools, signal }: Job,
    durationSeconds: number,
  ): Promise<{ windows: PlannedWindow[]; source: 'bookmarks' | 'audio' }> {
    const marked = bookmarkMoments(item.bookmarks.map(({ type, seconds }) => ({ type, seconds })));
    const fromBookmarks = planHighlight(marked, { durationSeconds });
    if (fromBookmarks.length > 0) return { windows: fromBookmarks, source: 'bookmarks' };
    const { highlightPaddingBefore: before, highlightPaddingAfter: after } = this.settings.current;
    const samples = await measureLoudness(tools.ffmpeg.path, item.filePath, DEFAULT_PEAKS.sampleSeconds, signal);
    const peaks = loudestMoments(samples, { ...DEFAULT_PEAKS, window: { before, after } });
    return { windows: planHighlight(peaks, { durationSeconds }), source: 'audio' };
  }
}

/** 1-based number of the window the highlight is in at `seconds`. */
function clipAt(windows: readonly PlannedWindow[], seconds: number): number {
  let offset = 0;
  for (const [index, window] of windows.entries()) {
    offset += window.end - window.start;
    if (seconds < offset) return index + 1;
  }
  return windows.length;
}
