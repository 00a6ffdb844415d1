// The library index `<cache>/metadata/library-index.json`: what every sidecar says, per type folder,
// with the folder's stamp (mtime and ctime) when the index was taken. A cache the service keeps so a start
// reads one file instead of every sidecar; the sidecars stay the truth (docs/protocol.md, "Library index").
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../support/atomic-file.js';
import { errorCode } from '../support/file-errors.js';
import type { Logger } from '../support/logger.js';
import type { ContentRecord } from './content-item.js';
import { fromIndexedSidecar, toIndexedSidecar } from './content-sidecar.js';

export const LIBRARY_INDEX_FILE = 'library-index.json';
const INDEX_VERSION = 1;
/**
 * A folder changed this recently when the index was taken may change again within the same tick of its
 * file system's clock (FAT: 2 s) without its stamp moving; its stamp is not kept then, and the folder is
 * re-read at the next load unless a later index (taken this long after) vouches for it.
 */
const RACY_MS = 2000;
/** Changes within this time make one index write. */
const DEFAULT_DELAY_MS = 2000;

export interface FolderStamp {
  mtimeMs: number;
  ctimeMs: number;
}

/** The sidecars of one type folder by file name: their records, null for one the library skips (unreadable). */
export type IndexedSidecars = Map<string, ContentRecord | null>;

export interface IndexedFolder {
  /** Absent: not vouched for, the folder is read again. */
  stamp?: FolderStamp;
  sidecars: IndexedSidecars;
}

type IndexFile = {
  version: number;
  folders: Record<string, { stamp?: FolderStamp; sidecars: Record<string, unknown> }>;
};

/** The folder's stamp now; undefined when it does not exist. */
export async function folderStamp(folder: string): Promise<FolderStamp | undefined> {
  try {
    const info = await stat(folder);
    return { mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

export function sameStamp(a: FolderStamp | undefined, b: FolderStamp | undefined): boolean {
  return a !== undefined && b !== undefined && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/**
 * Keeps what the sidecars on disk say (told after each write and removal) with the folder's stamp seen
 * after this service's last change, and writes it as the index once per burst of changes, one write at a
 * time. A folder is vouched for only when its stamp is still the one seen: a change by anything else since
 * makes the next start read it again.
 */
export class LibraryIndex {
  private folders = new Map<string, IndexedFolder>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly metadataFolder: () => string,
    private readonly logger: Logger,
    private readonly delayMs = DEFAULT_DELAY_MS,
  ) {}

  get file(): string {
    return path.join(this.metadataFolder(), LIBRARY_INDEX_FILE);
  }

  /** The index on disk by type folder; undefined (logged unless simply absent) when it is missing, damaged or of another version. */
  async read(): Promise<Map<string, IndexedFolder> | undefined> {
    let value: IndexFile;
    try {
      value = JSON.parse(await readFile(this.file, 'utf8')) as IndexFile;
    } catch (error) {
      if (errorCode(error) !== 'ENOENT')
        this.logger.warn('library index not usable, rebuilt from the sidecars', { file: this.file, error });
      return undefined;
    }
    if (value?.version !== INDEX_VERSION || typeof value.folders !== 'object' || value.folders === null) {
      this.logger.info('library index of another version, rebuilt from the sidecars', { file: this.file, version: value?.version });
      return undefined;
    }
    const folders = new Map<string, IndexedFolder>();
    for (const [name, folder] of Object.entries(value.folders)) {
      const sidecars: IndexedSidecars = new Map();
      for (const [file, sidecar] of Object.entries(folder.sidecars ?? {})) {
        const record = sidecar === null ? null : fromIndexedSidecar(sidecar, path.basename(file, '.json'));
        if (record === undefined) {
          this.logger.warn('library index damaged, rebuilt from the sidecars', { file: this.file, entry: `${name}/${file}` });
          return undefined;
        }
        sidecars.set(file, record);
      }
      folders.set(name, { stamp: folder.stamp, sidecars });
    }
    return folders;
  }

  /** What a load found on disk, each folder with its stamp seen before its sidecars were read; written as the index when `changed`. */
  replace(folders: Map<string, IndexedFolder>, changed: boolean): void {
    this.folders = folders;
    if (changed) this.schedule();
  }

  /** A sidecar this service wrote. */
  async written(typeFolder: string, record: ContentRecord): Promise<void> {
    this.folderOf(typeFolder).sidecars.set(`${record.id}.json`, record);
    await this.changed(typeFolder);
  }

  /** A sidecar this service deleted. */
  async removed(typeFolder: string, id: string): Promise<void> {
    this.folderOf(typeFolder).sidecars.delete(`${id}.json`);
    await this.changed(typeFolder);
  }

  /** Writes a pending index now (at stop); a later change schedules the next one as usual. */
  async flush(): Promise<void> {
    if (this.timer === undefined) return this.writing;
    clearTimeout(this.timer);
    this.timer = undefined;
    return this.enqueueWrite();
  }

  /** Drops a pending write (the next start reads the folders it would have vouched for). */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private folderOf(typeFolder: string): IndexedFolder {
    let folder = this.folders.get(typeFolder);
    if (!folder) this.folders.set(typeFolder, (folder = { sidecars: new Map() }));
    return folder;
  }

  private async changed(typeFolder: string): Promise<void> {
    const folder = this.folderOf(typeFolder);
    folder.stamp = await folderStamp(path.join(this.metadataFolder(), typeFolder)).catch(() => undefined);
    this.schedule();
  }

  private schedule(delayMs = this.delayMs, retry = false): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.enqueueWrite(retry);
    }, delayMs);
    this.timer.unref();
  }

  private enqueueWrite(retry = false): Promise<void> {
    this.writing = this.writing.then(() =>
      this.write(retry).catch((error: unknown) =>
        this.logger.warn('library index not written; the next start reads the sidecars', { error }),
      ),
    );
    return this.writing;
  }

  /**
   * Stamps first, contents after: a sidecar renamed in between moves its folder's stamp away from the one
   * seen after this service's last change, so the folder is not vouched for.
   */
  private async write(retry: boolean): Promise<void> {
    const metadataFolder = this.metadataFolder();
    const takenAt = Date.now();
    const entries = [...this.folders];
    const stamps = await Promise.all(entries.map(([name]) => folderStamp(path.join(metadataFolder, name)).catch(() => undefined)));
    let racy = false;
    const folders: IndexFile['folders'] = {};
    entries.forEach(([name, folder], position) => {
      const stamp = stamps[position];
      const unchanged = stamp !== undefined && sameStamp(stamp, folder.stamp);
      const settled = unchanged && Math.max(stamp.mtimeMs, stamp.ctimeMs) < takenAt - RACY_MS;
      racy ||= unchanged && !settled;
      const values: Record<string, unknown> = {};
      for (const [file, record] of folder.sidecars) values[file] = record === null ? null : toIndexedSidecar(record);
      folders[name] = settled ? { stamp, sidecars: values } : { sidecars: values };
    });
    const index: IndexFile = { version: INDEX_VERSION, folders };
    await writeFileAtomic(path.join(metadataFolder, LIBRARY_INDEX_FILE), JSON.stringify(index));
    this.logger.debug('library index written', { folders: entries.length, racy });
    // Taken again once the folders are settled, so the next start can trust them; once only, in case a
    // folder's clock runs ahead of this one (a network drive).
    if (racy && !retry) this.schedule(RACY_MS, true);
  }
}
