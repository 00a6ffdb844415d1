// Long-running jobs (clips, highlights, compressions, uploads, imports) as progress cards, built from
// their progress events. It listens from module load, so a job started before the tray mounts is kept.
import type { EventContentMap } from '@keyframe/core/protocol';
import { useSyncExternalStore } from 'react';
import { SERVER_EVENT, connection } from '../connection';

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
  /** Present where the protocol can cancel the job (CancelClip, CancelUpload). */
  cancel: (() => void) | undefined;
}

/** A finished job's card stays this long, so the person sees it end; a failed one stays until dismissed. */
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
  if (job.phase === 'done')
    removalTimers.set(
      job.key,
      setTimeout(() => dismissJob(job.key), DONE_CARD_LIFETIME_MS),
    );
  publish();
}

export function dismissJob(key: string): void {
  clearTimeout(removalTimers.get(key));
  removalTimers.delete(key);
  if (jobs.delete(key)) publish();
}

const percent = (value: number) => Math.max(0, Math.min(100, value));
const baseName = (filePath: string) => filePath.slice(filePath.lastIndexOf('/') + 1);

function onClipProgress({ id, progress, segments, error }: EventContentMap['ClipProgress']): void {
  const key = `clip:${id}`;
  // CancelClip answers with progress 100 and no segments: the job is gone, not done.
  if (progress === 100 && segments.length === 0) return dismissJob(key);
  const first = segments[0];
  const title = first?.title?.trim() || first?.fileName || jobs.get(key)?.title || 'Clip';
  const failed = progress < 0;
  put({
    key,
    kind: 'clip',
    title,
    progress: failed ? 0 : percent(progress),
    phase: failed ? 'failed' : progress >= 100 ? 'done' : 'running',
    message: failed ? (error ?? 'The clip could not be made') : progress >= 100 ? 'Added to Clips' : undefined,
    cancel: failed || progress >= 100 ? undefined : () => connection.send('CancelClip', { id }),
  });
}

function onAiProgress({ id, progress, status, message, content }: EventContentMap['AiProgress']): void {
  const failed = status === 'error' || progress < 0;
  put({
    key: `highlight:${id}`,
    kind: 'highlight',
    title: content.title.trim() || content.fileName,
    progress: failed ? 0 : percent(progress),
    phase: failed ? 'failed' : status === 'done' ? 'done' : 'running',
    message,
    cancel: undefined,
  });
}

function onCompressionProgress({ filePath, progress, status, message }: EventContentMap['CompressionProgress']): void {
  const failed = status === 'error' || progress < 0;
  put({
    key: `compression:${filePath}`,
    kind: 'compression',
    title: baseName(filePath),
    progress: failed ? 0 : percent(progress),
    phase: failed ? 'failed' : status === 'done' || status === 'skipped' ? 'done' : 'running',
    message: message ?? (status === 'done' ? 'Compressed' : undefined),
    cancel: undefined,
  });
}

function onUploadProgress({ fileName, title, progress, status, message }: EventContentMap['UploadProgress']): void {
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
  });
}

function onImportProgress(event: EventContentMap['ImportProgress']): void {
  const key = `import:${event.id}`;
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
    cancel: undefined,
  });
}

window.addEventListener(SERVER_EVENT, ({ detail }) => {
  switch (detail.method) {
    case 'ClipProgress':
      return onClipProgress(detail.content);
    case 'AiProgress':
      return onAiProgress(detail.content);
    case 'CompressionProgress':
      return onCompressionProgress(detail.content);
    case 'UploadProgress':
      return onUploadProgress(detail.content);
    case 'ImportProgress':
      return onImportProgress(detail.content);
  }
});

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Every job with a card, oldest first. */
export function useJobs(): Job[] {
  return useSyncExternalStore(subscribe, () => snapshot);
}
