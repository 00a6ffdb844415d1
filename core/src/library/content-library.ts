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
import { Logger } from '../support/logger.js';
import { samePath } from '../support/paths.js';
import { TypedEvents } from '../support/typed-events.js';
import { SettingsStore } from '../settings/settings-store.js';
import type { ContentBookmark, ContentRecord } from './content-item.js';
import { decodeSidecar, encodeSidecar } from './content-sidecar.js';

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
export const newContentId = () => randomUUID().replaceAll('-', '');

@injectable()
export class ContentLibrary {
  private readonly items = new Map<string, ContentRecord>();
  /** One write at a time per item, each of its newest version. */
  private readonly writes = new Map<string, Promise<void>>();
  private readonly logger: Logger;
  readonly events = new TypedEvents<LibraryEvents>();

  constructor(
    private readonly settings: SettingsStore,
    logger: Logger,
  ) {
    this.logger = logger.child('content');
  }

  get metadataFolder(): string {
    return path.join(this.settings.current.cacheFolder, 'metadata');
  }

  /** `<contentFolder>/<TypeFolder>/<game folder>/<fileName>`: where a new video of that kind goes. */
  contentPath(type: ContentType, game: string, fileName: string): string {
    return path.join(this.settings.current.contentFolder, TYPE_FOLDERS[type], sanitizeFolderName(game), fileName);
  }

  /**
   * Reads every sidecar. Broken ones are logged and skipped; items whose video is gone are left
   * on disk but not listed (the video may be on a drive that is not plugged in).
   */
  async load(): Promise<void> {
    const loaded = new Map<string, ContentRecord>();
    let missingVideos = 0;
    for (const type of Object.keys(TYPE_FOLDERS) as ContentType[]) {
      const folder = path.join(this.metadataFolder, TYPE_FOLDERS[type]);
      let names: string[];
      try {
        names = await readdir(folder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.warn('metadata folder unreadable', { folder, error });
        continue;
      }
      for (const name of names) {
        const file = path.join(folder, name);
        if (/\.json\.tmp-/.test(name)) {
          await rm(file, { force: true }); // a write that a crash interrupted; the sidecar itself is intact
          continue;
        }
        if (name.startsWith('.') || !name.endsWith('.json')) continue;
        const read = await readSidecar(file, type, this.logger);
        if (!read) continue;
        if (read.videoBytes === undefined) {
          missingVideos++;
          continue;
        }
        const { record } = read;
        if (!record.sizeBytes && read.videoBytes > 0) record.sizeBytes = read.videoBytes;
        loaded.set(record.id, record);
      }
    }
    this.items.clear();
    for (const [id, record] of loaded) this.items.set(id, record);
    this.logger.info('content loaded', { items: loaded.size, missingVideos });
    this.publish();
  }

  list(): readonly ContentRecord[] {
    return sortNewestFirst([...this.items.values()]);
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
    this.items.delete(id);
    await this.writes.get(id)?.catch(() => undefined); // a sidecar write in flight must not bring it back
    const cacheFolder = this.settings.current.cacheFolder;
    await Promise.all(
      [
        this.sidecarPath(record),
        thumbnailPath(cacheFolder, TYPE_FOLDERS[record.type], id),
        waveformPath(cacheFolder, TYPE_FOLDERS[record.type], id),
      ].map((file) =>
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
    this.items.set(record.id, record);
    try {
      await this.write(record.id);
    } catch (error) {
      if (this.items.get(record.id) === record) {
        if (previous) this.items.set(record.id, previous);
        else this.items.delete(record.id);
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
        if (record) await writeFileAtomic(this.sidecarPath(record), encodeSidecar(record));
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

/** A sidecar of either version, and the size of its video now (undefined: the video is gone); logged and undefined when unusable. */
export async function readSidecar(
  file: string,
  type: ContentType,
  logger: Logger,
): Promise<{ record: ContentRecord; version: number; videoBytes: number | undefined } | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    logger.warn('content sidecar skipped: not readable JSON', { file, error: (error as Error).message });
    return undefined;
  }
  const filePath = (value as { filePath?: unknown } | null)?.filePath;
  const videoBytes = typeof filePath === 'string' ? await fileSize(filePath) : undefined;
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
  return { record, version, videoBytes };
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

function sortNewestFirst(records: ContentRecord[]): ContentRecord[] {
  return records.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
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
