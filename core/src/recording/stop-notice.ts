// What the user is told when a recording ended without being asked to, or could not be kept.
import path from 'node:path';
import type { FfmpegExit } from '../media/ffmpeg-process.js';
import type { ContentRecord } from '../library/content-library.js';
import type { Modal } from '../notices/notifier.js';
import type { StopCause } from './recording.js';

export interface StopOutcome {
  /** The session kept in the library. */
  item: ContentRecord | undefined;
  /** Why the session could not be kept. */
  saveError: string | undefined;
  /** The session file that was written (none in Buffer mode). */
  cacheFile: string | undefined;
}

/** The dialog for a recording that ended as `cause` says with `exit`; undefined when it stopped as asked and was kept. */
export function stopNotice(cause: StopCause, exit: FfmpegExit, { item, saveError, cacheFile }: StopOutcome): Modal | undefined {
  const saved = item
    ? `What was recorded until then was saved as ${item.filePath}.`
    : cacheFile
      ? 'Nothing could be saved.'
      : 'Replays saved before that are kept.';
  if (cause.kind === 'vanished') {
    return {
      title: 'Recording stopped: folder removed',
      description: `The folder the recording was written to (${path.dirname(cacheFile ?? '')}) was removed while recording. ${saved}`,
      type: 'error',
    };
  }
  if (cause.kind === 'failed') {
    return {
      title: failureTitle(exit.errorText),
      description: `${saved}${exit.errorText ? ` ffmpeg said: ${exit.errorText}` : ''}`,
      type: 'error',
    };
  }
  return saveError ? { title: 'Recording not saved', description: saveError, type: 'error' } : undefined;
}

/** What the user reads first when ffmpeg ended on its own (mapping as in the reference, §6.7). */
export function failureTitle(errorText: string): string {
  if (/No space left on device|ENOSPC|disk full/i.test(errorText)) return 'Recording stopped: out of disk space';
  if (/Permission denied|Access is denied|Could not open|Unable to write|Read-only file system/i.test(errorText))
    return 'Recording stopped: cannot write to folder';
  if (/Error writing|I\/O error/i.test(errorText)) return 'Recording stopped: write error';
  if (/encod|codec/i.test(errorText)) return 'Recording stopped: encoder error';
  return 'Recording stopped unexpectedly';
}
