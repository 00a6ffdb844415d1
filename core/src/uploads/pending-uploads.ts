// Uploads under way, kept in the data folder so that a restarted service picks them up again: what
// was asked for, which library item, and (once the file is sent) the upload URL to follow.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Type, type Static } from '#typebox';
import { describeProblems } from '../protocol/index.js';
import { writeFileAtomic } from '../support/atomic-file.js';

export const PendingUpload = Type.Object({
  contentId: Type.String(),
  filePath: Type.String(),
  /** Key of `UploadProgress` and `CancelUpload`: the file name with its extension. */
  fileName: Type.String(),
  title: Type.String(),
  metadata: Type.Record(Type.String(), Type.String()),
  phase: Type.Union([Type.Literal('uploading'), Type.Literal('processing')]),
  uploadUrl: Type.Optional(Type.String()),
});
export type PendingUpload = Static<typeof PendingUpload>;

const PendingFile = Type.Array(PendingUpload);

export class PendingUploads {
  private readonly records = new Map<string, PendingUpload>();
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly filePath: string) {}

  /** The records of the previous run; an unreadable file counts as none. */
  async load(): Promise<PendingUpload[]> {
    const value: unknown = await readFile(this.filePath, 'utf8')
      .then((text) => JSON.parse(text) as unknown)
      .catch(() => []);
    this.records.clear();
    if (describeProblems(PendingFile, value).length === 0) {
      for (const record of value as PendingUpload[]) this.records.set(record.fileName, record);
    }
    return [...this.records.values()];
  }

  put(record: PendingUpload): Promise<void> {
    this.records.set(record.fileName, record);
    return this.save();
  }

  remove(fileName: string): Promise<void> {
    this.records.delete(fileName);
    return this.save();
  }

  /** Writes one at a time, each of the newest contents. */
  private save(): Promise<void> {
    const contents = `${JSON.stringify([...this.records.values()], null, 2)}\n`;
    this.writing = this.writing.catch(() => undefined).then(() => writeFileAtomic(this.filePath, contents));
    return this.writing;
  }
}

export const pendingUploadsFile = (dataFolder: string) => path.join(dataFolder, 'uploads', 'pending.json');
export const uploadUrlsFile = (dataFolder: string) => path.join(dataFolder, 'uploads', 'upload-urls.json');
