// What the media jobs' progress events add to SPEC at their end: the library video a finished job made
// (`output`, so a frontend can open it), and the end of a cancelled job: -1, `status: "error"` (what a
// frontend that knows no cancel shows as a failure) and `cancelled: true`.
import type { EventContent } from '../protocol/index.js';
import type { ContentRecord } from '../library/content-library.js';

export type JobOutputReference = NonNullable<EventContent<'AiProgress'>['output']>;

/** The `output` of a finished job's last progress event. */
export function jobOutput(record: ContentRecord): JobOutputReference {
  return { filePath: record.filePath, fileName: record.fileName, type: record.type, title: record.title };
}

/** The fields of a cancelled job's last progress event: "Highlight cancelled", -1, `cancelled`. */
export function cancelledEnd(what: string): { progress: -1; status: 'error'; message: string; cancelled: true } {
  return { progress: -1, status: 'error', message: `${what} cancelled`, cancelled: true };
}
