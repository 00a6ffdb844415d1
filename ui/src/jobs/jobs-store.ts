// Long-running jobs (clips, highlights, compressions, uploads, imports) as progress cards, built from
// their progress events. It listens from module load, so a job started before the tray mounts is kept.
// A cancelled job's card goes (its event says `cancelled`; a clip's ends with no segments); an upload's
// cancel is SPEC's failure "Upload cancelled", shown as such. A finished job that made a video keeps its
// card, with Open and Show in folder, until dismissed.
import type { EventContentMap } from '@keyframe/core/protocol';
import { useSyncExternalStore } from 'react';
import { connection, onServerEvents } from '../connection';

export type JobKind = 'clip' | 'highlight' | 'compression' | 'upload' | 'import';
export type JobPhase = 'running' | 'done' | 'failed';

export interface Job {
  /** Kind plus the key the protocol gives the job (clip id, file path, ...). */
  key: string;
  kind: JobKind;
  title: string;
  /** 0-100 while running. */
  progress: number;
  phase: JobPhase;
  message: string | undefined;
  /** Present while the job runs: CancelClip, CancelAiClip, CancelCompression, CancelUpload, CancelImport. */
  cancel: (() => void) | undefined;
  /** The video a finished job made (or replaced), to open or show in its folder. */
  output: JobOutput | undefined;
}

export type JobOutput = NonNullable<EventContentMap['ClipProgress']['output']>;

/** A finished job's card without a video to open stays this long, so the person sees it end; a failed one stays until dismissed. */
const DONE_CARD_LIFETIME_MS = 4_000;

const jobs = new Map<string, Job>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();
const listeners = new Set<() => void>();
let snapshot: Job[] = [];

function publish(): void {
  snapshot = [...jobs.values()];
  for (const listener of listeners) listener();
}

function put(job: Job): void {
  clearTimeout(removalTimers.get(job.key));
  removalTimers.delete(job.key);
  jobs.set(job.key, job);
  if (job.phase === 'done' && !job.output)
    removalTimers.set(
      job.key,
      setTimeout(() => dismissJob(job.key), DONE_CARD_LIFETIME_MS),
    );
  publish();
}

/** Removes every finished and failed card. */
export function dismissFinishedJobs(): void {
  for (const job of snapshot) if (job.phase !== 'running') dismissJob(job.key);
}

export function dismissJob(key: string): void {
  clearTimeout(removalTimers.get(key));
  removalTimers.delete(key);
  if (jobs.delete(key)) publish();
}

const percent = (value: number) => Math.max(0, Math.min(100, value));
const baseName = (filePath: string) => filePath.slice(filePath.lastIndexOf('/') + 1);

/** A clip is named by its title, else by its game: never by the video it is cut from. */
function clipTitle(
  segments: EventContentMap['ClipProgress']['segments'],
  output: JobOutput | undefined,
  known: string | undefined,
): string {
  const first = segments[0];
  return output?.title.trim() || first?.title?.trim() || known || (first?.game ? `${first.game} clip` : 'New clip');
}

function onClipProgress({ id, progress, segments, error, output }: EventContentMap['ClipProgress']): void {
  const key = `clip:${id}`;
  // CancelClip answers with progress 100 and no segments: the job is gone, not done.
  if (progress === 100 && segments.length === 0) return dismissJob(key);
  const title = clipTitle(segments, output, jobs.get(key)?.title);
  const failed = progress < 0;
  put({
    key,
    kind: 'clip',
    title,
    progress: failed ? 0 : percent(progress),
    phase: failed ? 'failed' : progress >= 100 ? 'done' : 'running',
    message: failed ? (error ?? 'The clip could not be made') : progress >= 100 ? 'Added to Clips' : undefined,
    cancel: failed || progress >= 100 ? undefined : () => connection.send('CancelClip', { id }),
    output,
  });
}

function onAiProgress({ id, progress, status, message, content, output, cancelled: ended }: EventContentMap['AiProgress']): void {
  const key = `highlight:${id}`;
  if (ended) return dismissJob(key);
  const failed = status === 'error' || progress < 0;
  put({
    key,
    kind: 'highlight',
    title: content.title.trim() || content.fileName,
    progress: failed ? 0 : percent(progress),
    phase: failed ? 'failed' : status === 'done' ? 'done' : 'running',
    message,
    cancel: status === 'processing' && !failed ? () => connection.send('CancelAiClip', { id }) : undefined,
    output,
  });
}

function onCompressionProgress({
  filePath,
  progress,
  status,
  message,
  output,
  cancelled: ended,
}: EventContentMap['CompressionProgress']): void {
  const key = `compression:${filePath}`;
  if (ended) return dismissJob(key);
  const failed = status === 'error' || progress < 0;
  put({
    key,
    kind: 'compression',
    title: baseName(filePath),
    progress: failed ? 0 : percent(progress),
    phase: failed ? 'failed' : status === 'done' || status === 'skipped' ? 'done' : 'running',
    message: message ?? (status === 'done' ? 'Compressed' : undefined),
    cancel: status === 'compressing' && !failed ? () => connection.send('CancelCompression', { filePath }) : undefined,
    output,
  });
}

function onUploadProgress({ fileName, title, progress, status, message, output }: EventContentMap['UploadProgress']): void {
  const failed = status === 'error' || progress < 0;
  const finished = failed || status === 'done';
  put({
    key: `upload:${fileName}`,
    kind: 'upload',
    title: title.trim() || fileName,
    progress: failed ? 0 : percent(progress),
    phase: failed ? 'failed' : status === 'done' ? 'done' : 'running',
    message,
    cancel: finished ? undefined : () => connection.send('CancelUpload', { fileName }),
    output,
  });
}

function onImportProgress(event: EventContentMap['ImportProgress']): void {
  const key = `import:${event.id}`;
  if (event.cancelled) return dismissJob(key);
  const summary = event.status !== 'importing' && event.progress === 100;
  const fileFailed = event.progress < 0;
  const position = `${Math.min(event.currentFileIndex + 1, event.totalFiles)} of ${event.totalFiles}`;
  put({
    key,
    kind: 'import',
    title: summary ? (event.totalFiles === 1 ? '1 file' : `${event.totalFiles} files`) : `${event.fileName} (${position})`,
    progress: summary ? 100 : fileFailed ? 0 : percent(event.progress),
    // A failed file does not end the import; the summary says how it went.
    phase: summary ? (event.status === 'done' ? 'done' : 'failed') : 'running',
    message: event.message,
    cancel: summary ? undefined : () => connection.send('CancelImport', { id: event.id }),
    // Each imported file names its video; the card opens the last one.
    output: event.output ?? jobs.get(key)?.output,
  });
}

onServerEvents({
  ClipProgress: onClipProgress,
  AiProgress: onAiProgress,
  CompressionProgress: onCompressionProgress,
  UploadProgress: onUploadProgress,
  ImportProgress: onImportProgress,
});

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Every job with a card, oldest first. */
export function useJobs(): Job[] {
  return useSyncExternalStore(subscribe, () => snapshot);
}
