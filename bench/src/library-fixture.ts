// A generated library as the service writes one: sessions with an empty stub video each (the library
// lists any video that exists) and a version 2 sidecar, written plainly for speed (no fsync).
import { encodeSidecar, newContentId } from '@keyframe/core/internal';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const WRITES_AT_ONCE = 64;

export interface LibraryFolders {
  contentFolder: string;
  cacheFolder: string;
}

/**
 * Writes sessions `from` … `to - 1` of game `Bench`: `<content>/Full Sessions/Bench/session-<n>.mp4`, 30 min
 * long, session n created n minutes after 2026-01-01 (UTC), and their sidecars under `<cache>/metadata`.
 */
export async function writeLibraryItems({ contentFolder, cacheFolder }: LibraryFolders, from: number, to: number): Promise<void> {
  const videos = path.join(contentFolder, 'Full Sessions', 'Bench');
  const sidecars = path.join(cacheFolder, 'metadata', 'Full Sessions');
  await mkdir(videos, { recursive: true });
  await mkdir(sidecars, { recursive: true });
  const writeItem = async (index: number) => {
    const filePath = path.join(videos, `session-${index}.mp4`);
    const id = newContentId();
    await writeFile(filePath, '');
    const record = {
      id,
      type: 'Session' as const,
      title: '',
      game: 'Bench',
      bookmarks: [],
      fileName: path.parse(filePath).name,
      filePath,
      sizeBytes: 0,
      durationSeconds: 1800,
      createdAt: new Date(Date.UTC(2026, 0, 1) + index * 60_000),
      isImported: false,
      compressed: false,
    };
    await writeFile(path.join(sidecars, `${id}.json`), encodeSidecar(record));
  };
  for (let start = from; start < to; start += WRITES_AT_ONCE) {
    await Promise.all(Array.from({ length: Math.min(WRITES_AT_ONCE, to - start) }, (_, offset) => writeItem(start + offset)));
  }
}
