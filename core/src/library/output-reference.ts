// The library video a finished job made (or replaced), as the `output` of its last progress event: what a
// frontend needs to open it or show it in its folder. Shared by the media jobs and uploads.
import type { EventContent } from '../protocol/index.js';
import type { ContentRecord } from './content-library.js';

export type OutputReference = NonNullable<EventContent<'AiProgress'>['output']>;

export function outputReference(record: ContentRecord): OutputReference {
  return { filePath: record.filePath, fileName: record.fileName, type: record.type, title: record.title };
}
