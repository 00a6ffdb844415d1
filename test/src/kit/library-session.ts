// A Session the library already knows, as a recorder of an earlier run left it: its video (taking
// room on the disk, but not written) and its sidecar in the data folder's default cache. For tests of
// what the storage limit counts and deletes.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { allocatedFile } from '@keyframe/core/testing';
import { formatDuration, formatLocalDateTime, TYPE_FOLDERS, type ContentItem } from '@keyframe/core/protocol';

export interface LibrarySession {
  id: string;
  file: string;
  sidecar: string;
}

const HOUR = 3600_000;

/** Recorded `hoursOld` ago into `file`; the video is made with `bytes` on the disk unless `file` exists already. */
export async function writeLibrarySession(dataFolder: string, file: string, hoursOld: number, bytes: number): Promise<LibrarySession> {
  const created = new Date(Date.now() - hoursOld * HOUR);
  if (!existsSync(file)) await allocatedFile(file, bytes, created);
  const id = randomUUID().replaceAll('-', '');
  const name = path.basename(file, path.extname(file));
  const item: ContentItem = {
    id,
    type: 'Session',
    title: name,
    game: 'Arena',
    bookmarks: [],
    fileName: name,
    filePath: file,
    fileSize: 'Unknown',
    fileSizeKb: 0,
    duration: formatDuration(60),
    createdAt: formatLocalDateTime(created),
    aiAnalysis: null,
    uploadId: null,
    gameDatabaseId: null,
    audioTrackNames: null,
    isImported: false,
    compressed: false,
  };
  const sidecar = path.join(dataFolder, 'cache', 'metadata', TYPE_FOLDERS.Session, `${id}.json`);
  await mkdir(path.dirname(sidecar), { recursive: true });
  await writeFile(sidecar, `${JSON.stringify(item, null, 2)}\n`);
  return { id, file, sidecar };
}
