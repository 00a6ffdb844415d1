// Edits a frontend asks of library items: rename (file and title), delete (one or a batch), bookmarks, favourites.
// Items and paths are resolved through `ContentLocator`, so nothing outside the content folder is touched.
import path from 'node:path';
import { injectable } from 'tsyringe';
import { CommandError } from '../protocol/refusal.js';
import { moveFile } from '../media/move-file.js';
import { formatDuration, parseDuration, type BookmarkType, type ContentItemReference, type ContentType } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { BookmarkService } from '../recording/bookmark-service.js';
import { ContentItemQueue } from './content-item-queue.js';
import { byTime, toWireBookmark, type ContentBookmark } from './content-item.js';
import { ContentLibrary, type ContentRecord } from './content-library.js';
import { ContentLocator } from './content-locator.js';
import { RecorderService } from '../recording/recorder-service.js';

export interface BookmarkAddition {
  filePath: string;
  contentType: ContentType;
  id: number;
  type: BookmarkType;
  /** `hh:mm:ss[.f]` from the start of the video. */
  time: string;
}

/** Longest file name a title gives (without extension); file systems allow 255 bytes. */
const MAX_NAME_LENGTH = 180;
/** A bookmark may sit this far past the last frame (rounding of durations). */
const END_TOLERANCE_SECONDS = 1;

@injectable()
export class ContentEditor {
  private readonly logger: Logger;

  constructor(
    private readonly library: ContentLibrary,
    private readonly locator: ContentLocator,
    private readonly recorder: RecorderService,
    private readonly bookmarks: BookmarkService,
    private readonly items: ContentItemQueue,
    logger: Logger,
  ) {
    this.logger = logger.child('content');
  }

  /**
   * Sets the title and moves the video to a file named after it (protocol-gaps §5.2): invalid
   * characters dropped, ` (1)` on a collision, a blank title gives the recording's start time.
   * Thumbnail, waveform and sidecar are keyed by the item's id, so they stay where they are.
   */
  async rename(fileName: string, type: ContentType, title: string): Promise<ContentRecord> {
    const { id } = this.locator.byFileName(fileName, type);
    return this.items.run(id, () => this.renameNow(this.stillNamed(id, fileName, type), title));
  }

  private async renameNow(item: ContentRecord, title: string): Promise<ContentRecord> {
    const current = await this.locator.insideContent(item.filePath);
    this.refuseActiveRecording(item, 'renamed');
    const wanted = fileNameFromTitle(title) ?? startTimeName(item);
    if (wanted === item.fileName) return this.library.update(item.id, { title });
    const extension = path.extname(current);
    const moved = await moveFile(current, path.join(path.dirname(current), `${wanted}${extension}`));
    try {
      const updated = await this.library.update(item.id, { title, filePath: moved });
      this.logger.info('content renamed', { id: item.id, from: current, to: moved });
      return updated;
    } catch (error) {
      await moveFile(moved, current).catch(() => undefined);
      throw new CommandError(
        'Failed',
        `${item.fileName} could not be renamed: its metadata could not be written (${(error as Error).message}).`,
      );
    }
  }

  /** Deletes one item: video, sidecar, thumbnail, waveform, and its game folder once empty. */
  async delete(fileName: string, type: ContentType): Promise<void> {
    await this.deleteMany([{ FileName: fileName, ContentType: type }]);
  }

  /** Resolves every item first (one refusal refuses the batch, nothing deleted), then deletes them with one `State`. */
  async deleteMany(references: readonly ContentItemReference[]): Promise<void> {
    const ids = references.map((reference) => this.locator.byFileName(reference.FileName, reference.ContentType).id);
    await this.items.runAll(ids, async () => {
      const items = new Map<string, ContentRecord>();
      for (const [index, reference] of references.entries()) {
        const item = this.stillNamed(ids[index]!, reference.FileName, reference.ContentType);
        await this.insideContentOrGone(item);
        this.refuseActiveRecording(item, 'deleted');
        items.set(item.id, item);
      }
      await this.library.removeMany([...items.keys()]);
    });
  }

  /**
   * Adds a bookmark with the frontend's id: to the running recording when `filePath` is its
   * session file (`BookmarkCreated` follows), else to the library item, replacing one with that id.
   */
  async addBookmark(request: BookmarkAddition): Promise<void> {
    const seconds = parseDuration(request.time);
    if (seconds === undefined) throw new CommandError('InvalidParameters', `"${request.time}" is not a duration (hh:mm:ss.fff).`);
    const bookmark: ContentBookmark = { id: request.id, type: request.type, seconds };
    if (this.isRecordingFile(request.filePath, request.contentType)) {
      if (this.bookmarks.addToRecording(toWireBookmark(bookmark), 'frontend')) return;
    }
    await this.editItem(request.filePath, request.contentType, async (item) => {
      if (seconds > item.durationSeconds + END_TOLERANCE_SECONDS) {
        const duration = formatDuration(item.durationSeconds);
        throw new CommandError('InvalidParameters', `The bookmark at ${request.time} is past the end of ${item.fileName} (${duration}).`);
      }
      const others = item.bookmarks.filter((existing) => existing.id !== request.id);
      await this.library.update(item.id, { bookmarks: [...others, bookmark].sort(byTime) });
    });
  }

  /** Removes every bookmark with `id` from the running recording or the library item. */
  async deleteBookmark(filePath: string, type: ContentType, id: number): Promise<void> {
    const recording = this.recorder.current;
    if (recording && this.isRecordingFile(filePath, type)) {
      if (!recording.removeBookmark(id)) throw new CommandError('NotFound', `The recording has no bookmark with id ${id}.`);
      return;
    }
    await this.editItem(filePath, type, async (item) => {
      if (!item.bookmarks.some((bookmark) => bookmark.id === id)) {
        throw new CommandError('NotFound', `${item.fileName} has no bookmark with id ${id}.`);
      }
      await this.library.update(item.id, { bookmarks: item.bookmarks.filter((bookmark) => bookmark.id !== id) });
    });
  }

  /** Marks the item a favourite or not; its sidecar keeps `favorite` only while it is one. */
  async setFavorite(filePath: string, type: ContentType, favorite: boolean): Promise<void> {
    await this.editItem(filePath, type, async (item) => {
      if ((item.favorite === true) === favorite) return;
      await this.library.update(item.id, { favorite: favorite ? true : undefined });
    });
  }

  /** Runs `edit` in the item's queue on the item as it is then (an edit queued before may have changed it). */
  private async editItem(filePath: string, type: ContentType, edit: (item: ContentRecord) => Promise<void>): Promise<void> {
    const { id } = await this.locator.byFilePath(filePath, type);
    await this.items.run(id, async () => {
      const item = this.library.get(id);
      if (!item) throw new CommandError('NotFound', `${filePath} was deleted meanwhile.`);
      await edit(item);
    });
  }

  /** The item `id` as it is now, if it still has the name the frontend gave; renamed or deleted meanwhile is `NotFound`. */
  private stillNamed(id: string, fileName: string, type: ContentType): ContentRecord {
    const item = this.library.get(id);
    if (item?.fileName !== fileName)
      throw new CommandError('NotFound', `There is no ${type} named "${fileName}" in the library any more (renamed or deleted meanwhile).`);
    return item;
  }

  /** The item's video must be inside the content folder; one that vanished since it was listed may still go. */
  private async insideContentOrGone(item: ContentRecord): Promise<void> {
    try {
      await this.locator.insideContent(item.filePath);
    } catch (error) {
      // NotFound comes after the lexical check: the path is inside, the file is just gone.
      if (!(error instanceof CommandError && error.code === 'NotFound')) throw error;
    }
  }

  private refuseActiveRecording(item: ContentRecord, verb: string): void {
    if (this.recorder.current?.isWriting(item.filePath)) {
      throw new CommandError('NotAllowed', `${item.fileName} is being recorded and cannot be ${verb}: stop the recording first.`);
    }
  }

  /** `filePath` names the session file of the running recording (not on disk until it stops). */
  private isRecordingFile(filePath: string, type: ContentType): boolean {
    return type === 'Session' && path.isAbsolute(filePath) && this.recorder.current?.isWriting(filePath) === true;
  }
}

/** The title as a file name: characters no file system allows removed, trimmed; undefined when nothing is left. */
export function fileNameFromTitle(title: string): string | undefined {
  const cleaned = title
    .replace(/[<>:"/\\|?*\u0000-\u001f]/g, '')
    .slice(0, MAX_NAME_LENGTH)
    .replace(/^[\s.]+|[\s.]+$/g, '');
  if (cleaned === '') return undefined;
  return /^(con|prn|aux|nul|com\d|lpt\d)$/i.test(cleaned) ? `${cleaned}_` : cleaned;
}

/** `yyyy-MM-dd_HH-mm-ss` (local) of when the recording began: created time minus duration. */
function startTimeName(item: ContentRecord): string {
  const created = Math.floor(item.createdAt.getTime() / 1000) * 1000;
  const start = new Date(created - item.durationSeconds * 1000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}_${pad(start.getHours())}-${pad(start.getMinutes())}-${pad(start.getSeconds())}`;
}
