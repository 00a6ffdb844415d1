// The user's videos as the service knows them: one JSON sidecar per item in
// `<cache>/metadata/<TypeFolder>/<id>.json` (content-sidecar.ts), written atomically. Listeners of
// `events` learn every change; `toContentItem` (content-item.ts) is how an item looks on the wire.
import { randomUUID } from 'node:crypto';
import { readdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { injectable } from 'tsyringe';
import { thumbnailPath } from '../media/thumbnail.js';
import { waveformPath } from '../media/waveform.js';
import { toWirePath, TYPE_FOLDERS, type ContentType } from '../protocol/index.js';
import { writeFileAtomic } from '../support/atomic-file.js';
import { errorCode } from '../support/file-errors.js';
import { Logger } from '../support/logger.js';
import { samePath } from '../support/paths.js';
import { TypedEvents } from '../support/typed-events.js';
import { SettingsStore } from '../settings/settings-store.js';
import type { ContentBookmark, ContentRecord } from './content-item.js';
import { decodeSidecar, encodeSidecar } from './content-sidecar.js';
import { folderStamp, LibraryIndex, sameStamp, type IndexedFolder, type IndexedSidecars } from './library-index.js';
import { NewestFirstRecords } from './newest-first-records.js';

export type { ContentBookmark, ContentRecord } from './content-item.js';

/** What a producer (recorder, clips, import) knows about a new video; the library does the rest. */
export interface NewContent {
  type: ContentType;
  /** Absolute path of the video, already in its final place. */
  filePath: string;
  game: string;
  durationSeconds: number;
  title?: string;
  bookmarks?: ContentBookmark[];
  /** Default: now. */
  createdAt?: Date;
  /** Here null is "not known", as several producers' sources say it. */
  gameDatabaseId?: number | null;
  audioTrackNames?: string[] | null;
  isImported?: boolean;
  compressed?: boolean;
  gameExePath?: string | null;
  recordedFrom?: Date;
  recordedUntil?: Date;
}

export type ContentChange = Partial<Omit<ContentRecord, 'id' | 'type'>>;

export type LibraryEvents = {
  /** The items after a load, an addition, a change or a (batch) removal, newest first. */
  changed: readonly ContentRecord[];
};

const ID_PATTERN = /^[0-9a-f]{32}$/;
/** Stats in flight at once while checking videos after a load: the file system's thread pool stays free for the rest. */
const VIDEO_CHECKS_AT_ONCE = 16;
/** Sidecars read at once when a folder is read again. */
const SIDECAR_READS_AT_ONCE = 32;
export const newContentId = () => randomUUID().replaceAll('-', '');

@injectable()
export class ContentLibrary {
  private readonly items = new NewestFirstRecords();
  /** One write at a time per item, each of its newest version. */
  private readonly writes = new Map<string, Promise<void>>();
  private readonly logger: Logger;
  private readonly index: LibraryIndex;
  private videoCheck: Promise<void> = Promise.resolve();
  readonly events = new TypedEvents<LibraryEvents>();

  constructor(
    private readonly settings: SettingsStore,
    logger: Logger,
  ) {
    this.logger = logger.child('content');
    this.index = new LibraryIndex(() => this.metadataFolder, this.logger);
  }

  get metadataFolder(): string {
    return path.join(this.settings.current.cacheFolder, 'metadata');
  }

  /** `<contentFolder>/<TypeFolder>/<game folder>/<fileName>`: where a new video of that kind goes. */
  contentPath(type: ContentType, game: string, fileName: string): string {
    return path.join(this.settings.current.contentFolder, TYPE_FOLDERS[type], sanitizeFolderName(game), fileName);
  }

  /**
   * Lists every item: from the library index where it agrees with the metadata folders, from the sidecars
   * of a folder where it does not (docs/protocol.md, "Library index"). Broken sidecars are logged and
   * skipped. Items whose video is gone are dropped from the list by a check that follows (`videosChecked`;
   * with `checkVideosLater`, when the caller calls `checkVideos`, e.g. once the service answers)
   * and left on disk (the video may be on a drive that is not plugged in).
   */
  async load({ checkVideosLater = false }: { checkVideosLater?: boolean } = {}): Promise<void> {
    const indexed = await this.index.read();
    const found = new Map<string, IndexedFolder>();
    const reread: string[] = [];
    for (const type of Object.keys(TYPE_FOLDERS) as ContentType[]) {
      const typeFolder = TYPE_FOLDERS[type];
      const folder = path.join(this.metadataFolder, typeFolder);
      const names = await this.sidecarNames(folder);
      if (names === undefined) continue;
      // After the listing, before the contents: a sidecar changed meanwhile moves the stamp, and the index taken later does not vouch for it.
      const stamp = await folderStamp(folder).catch(() => undefined);
      const previous = indexed?.get(typeFolder);
      if (previous && sameStamp(previous.stamp, stamp) && sameNames(previous.sidecars, names)) {
        found.set(typeFolder, previous);
        continue;
      }
      reread.push(typeFolder);
      found.set(typeFolder, { stamp, sidecars: await readSidecars(folder, type, names, this.logger) });
    }
    const vanished = [...(indexed?.keys() ?? [])].some((typeFolder) => !found.has(typeFolder));
    this.index.replace(found, reread.length > 0 || vanished || indexed === undefined);
    this.items.replaceAll([...found.values()].flatMap(({ sidecars }) => [...sidecars.values()].filter((record) => record !== null)));
    this.logger.info('content loaded', { items: this.items.size, fromIndex: indexed !== undefined, reread });
    this.publish();
    if (!checkVideosLater) void this.checkVideos();
  }

  /** Settles when the last check of the videos has dropped the items whose video is gone. */
  videosChecked(): Promise<void> {
    return this.videoCheck;
  }

  /** Writes a pending library index now (at stop); the sidecars are written already. */
  flush(): Promise<void> {
    return this.index.flush();
  }

  dispose(): void {
    this.index.dispose();
  }

  /** The sidecar file names of a type folder, after removing what interrupted writes left; undefined when there is no such folder. */
  private async sidecarNames(folder: string): Promise<string[] | undefined> {
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') this.logger.warn('metadata folder unreadable', { folder, error });
      return undefined;
    }
    const sidecars: string[] = [];
    for (const name of names) {
      // A write that a crash interrupted; the sidecar itself is intact.
      if (/\.json\.tmp-/.test(name)) await rm(path.join(folder, name), { force: true });
      else if (!name.startsWith('.') && name.endsWith('.json')) sidecars.push(name);
    }
    return sidecars;
  }

  /**
   * Stats the listed items' videos a few at a time and drops those whose video is gone, in one `State`;
   * fills in a size the sidecar did not know. Items changed meanwhile are left to their change.
   */
  checkVideos(): Promise<void> {
    this.videoCheck = this.dropMissingVideos();
    return this.videoCheck;
  }

  private async dropMissingVideos(): Promise<void> {
    const pending = [...this.items.values()];
    const missing: ContentRecord[] = [];
    const check = async (record: ContentRecord) => {
      const bytes = await fileSize(record.filePath);
      if (this.items.get(record.id) !== record) return;
      if (bytes === undefined) missing.push(record);
      else if (!record.sizeBytes && bytes > 0) this.items.set({ ...record, sizeBytes: bytes });
    };
    for (let start = 0; start < pending.length; start += VIDEO_CHECKS_AT_ONCE) {
      await Promise.all(pending.slice(start, start + VIDEO_CHECKS_AT_ONCE).map(check));
    }
    const gone = missing.filter((record) => this.items.get(record.id) === record).map((record) => record.id);
    if (gone.length > 0) {
      this.items.delete(gone);
      this.logger.info('content whose video is gone not listed', { missingVideos: gone.length });
      this.publish();
    }
  }

  list(): readonly ContentRecord[] {
    return this.items.list();
  }

  get(id: string): ContentRecord | undefined {
    return this.items.get(id);
  }

  /** Adds an item and writes its sidecar; a video that is already listed keeps its id. */
  async add(content: NewContent): Promise<ContentRecord> {
    const size = await fileSize(content.filePath);
    const existing = [...this.items.values()].find((item) => item.type === content.type && samePath(item.filePath, content.filePath));
    const { filePath, title, bookmarks, createdAt, isImported, compressed, ...rest } = content;
    const record = withoutAbsent<ContentRecord>({
      ...rest,
      id: existing?.id ?? newContentId(),
      title: title ?? '',
      bookmarks: bookmarks ?? [],
      fileName: path.parse(filePath).name,
      filePath: toWirePath(filePath),
      sizeBytes: size,
      createdAt: createdAt ?? new Date(),
      isImported: isImported ?? false,
      compressed: compressed ?? false,
    });
    await this.commit(record, existing);
    this.logger.info('content added', { id: record.id, type: record.type, file: record.filePath });
    return record;
  }

  /** Changes an item (rewriting its sidecar); a new `filePath` also renames `fileName` and re-reads the size. */
  async update(id: string, change: ContentChange): Promise<ContentRecord> {
    const current = this.items.get(id);
    if (!current) throw new Error(`No content with id ${id}`);
    const next = withoutAbsent<ContentRecord>({ ...current, ...change, id: current.id, type: current.type });
    if (change.filePath !== undefined && change.filePath !== current.filePath) {
      next.filePath = toWirePath(change.filePath);
      if (change.fileName === undefined) next.fileName = path.parse(change.filePath).name;
      const size = await fileSize(change.filePath);
      if (size !== undefined) next.sizeBytes = size;
    }
    await this.commit(next, current);
    return next;
  }

  /**
   * Deletes an item: its video, sidecar, thumbnail and waveform, and its game folder once empty.
   * A video that is already gone is no error.
   */
  async remove(id: string): Promise<void> {
    await this.removeMany([id]);
  }

  /** Deletes several items (as `remove`) and announces the result once, so a batch gives one `State`. */
  async removeMany(ids: readonly string[]): Promise<void> {
    for (const id of ids) if (!this.items.has(id)) throw new Error(`No content with id ${id}`);
    try {
      for (const id of ids) await this.deleteFiles(id);
    } finally {
      this.publish();
    }
  }

  private async deleteFiles(id: string): Promise<void> {
    const record = this.items.get(id);
    if (!record) return;
    await rm(record.filePath, { force: true });
    this.items.delete([id]);
    await this.writes.get(id)?.catch(() => undefined); // a sidecar write in flight must not bring it back
    const cacheFolder = this.settings.current.cacheFolder;
    const sidecar = this.sidecarPath(record);
    await rm(sidecar, { force: true })
      .then(() => this.index.removed(TYPE_FOLDERS[record.type], id))
      .catch((error: unknown) => this.logger.warn('could not delete a file of removed content', { file: sidecar, error }));
    await Promise.all(
      [thumbnailPath(cacheFolder, TYPE_FOLDERS[record.type], id), waveformPath(cacheFolder, TYPE_FOLDERS[record.type], id)].map((file) =>
        rm(file, { force: true }).catch((error: unknown) =>
          this.logger.warn('could not delete a file of removed content', { file, error }),
        ),
      ),
    );
    const gameFolder = path.dirname(record.filePath);
    if ((Object.values(TYPE_FOLDERS) as string[]).includes(path.basename(path.dirname(gameFolder))))
      await rmdir(gameFolder).catch(() => undefined);
    this.logger.info('content removed', { id, type: record.type, file: record.filePath });
  }

  /** The session whose video covers `at`: recordedFrom ≤ at ≤ recordedUntil. */
  findCovering(at: Date): ContentRecord | undefined {
    const time = at.getTime();
    return this.list().find(
      (item) =>
        item.type === 'Session' &&
        item.recordedFrom !== undefined &&
        item.recordedUntil !== undefined &&
        item.recordedFrom.getTime() <= time &&
        time <= item.recordedUntil.getTime(),
    );
  }

  sidecarPath(record: Pick<ContentRecord, 'id' | 'type'>): string {
    return path.join(this.metadataFolder, TYPE_FOLDERS[record.type], `${record.id}.json`);
  }

  /** The sidecar first, then memory and listeners; a failed write leaves both as they were. */
  private async commit(record: ContentRecord, previous: ContentRecord | undefined): Promise<void> {
    this.items.set(record);
    try {
      await this.write(record.id);
    } catch (error) {
      if (this.items.get(record.id) === record) {
        if (previous) this.items.set(previous);
        else this.items.delete([record.id]);
      }
      throw error;
    }
    this.publish();
  }

  private publish(): void {
    this.events.emit('changed', this.list());
  }

  private write(id: string): Promise<void> {
    const previous = this.writes.get(id) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const record = this.items.get(id);
        if (!record) return;
        await writeFileAtomic(this.sidecarPath(record), encodeSidecar(record));
        await this.index.written(TYPE_FOLDERS[record.type], record);
      });
    this.writes.set(id, next);
    void next
      .finally(() => {
        if (this.writes.get(id) === next) this.writes.delete(id);
      })
      .catch(() => undefined);
    return next;
  }
}

/** A sidecar of either version; logged and undefined when unusable. Only a version 1 sidecar needs its video's size (it kept a rounded one). */
export async function readSidecar(
  file: string,
  type: ContentType,
  logger: Logger,
): Promise<{ record: ContentRecord; version: number } | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    logger.warn('content sidecar skipped: not readable JSON', { file, error: (error as Error).message });
    return undefined;
  }
  const isV1 = typeof value === 'object' && value !== null && !('version' in value);
  const filePath = (value as { filePath?: unknown } | null)?.filePath;
  const videoBytes = isV1 && typeof filePath === 'string' ? await fileSize(filePath) : undefined;
  const reading = decodeSidecar(value, videoBytes);
  if (!reading.ok) {
    logger.warn('content sidecar skipped: unexpected shape', { file, problems: reading.problems });
    return undefined;
  }
  const { record, version } = reading;
  if (record.type !== type || !ID_PATTERN.test(record.id) || path.basename(file, '.json') !== record.id) {
    logger.warn('content sidecar skipped: id or type does not match its place', { file, id: record.id, type: record.type });
    return undefined;
  }
  return { record, version };
}

/** The sidecars `names` of a type folder, a few read at once; null for one the library skips. */
async function readSidecars(folder: string, type: ContentType, names: readonly string[], logger: Logger): Promise<IndexedSidecars> {
  const sidecars: IndexedSidecars = new Map();
  for (let start = 0; start < names.length; start += SIDECAR_READS_AT_ONCE) {
    const batch = names.slice(start, start + SIDECAR_READS_AT_ONCE);
    const reads = await Promise.all(batch.map((name) => readSidecar(path.join(folder, name), type, logger)));
    batch.forEach((name, position) => sidecars.set(name, reads[position]?.record ?? null));
  }
  return sidecars;
}

function sameNames(sidecars: IndexedSidecars, names: readonly string[]): boolean {
  return sidecars.size === names.length && names.every((name) => sidecars.has(name));
}

/**
 * A game name as a folder name: characters no file system allows become `_`, spaces and dots
 * are trimmed from the ends, `__` collapses to `_`, and an empty result is `Unknown`.
 */
export function sanitizeFolderName(name: string): string {
  const cleaned = name
    .replace(/[<>:"/\\|?*\u0000-\u001f]/g, '_')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .replace(/_{2,}/g, '_');
  if (cleaned === '') return 'Unknown';
  // Windows refuses device names as folder names.
  return /^(con|prn|aux|nul|com\d|lpt\d)$/i.test(cleaned) ? `${cleaned}_` : cleaned;
}

async function fileSize(file: string): Promise<number | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

/** `value` without its undefined and null fields: a record leaves out what it does not know, in memory and on disk. */
function withoutAbsent<T extends object>(value: { [K in keyof T]: T[K] | null }): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined && field !== null)) as T;
}
