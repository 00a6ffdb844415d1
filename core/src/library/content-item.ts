// A library item as the service knows it (seconds, Dates, bytes, absent fields left out), and the one
// place where it becomes the wire `ContentItem` the frontends see.
import {
  formatContentSize,
  formatDuration,
  formatLocalDateTime,
  parseDuration,
  type Bookmark,
  type BookmarkType,
  type ContentItem,
  type ContentType,
} from '../protocol/index.js';

export interface ContentBookmark {
  id: number;
  type: BookmarkType;
  subtype?: string;
  /** From the start of the video. */
  seconds: number;
  aiRating?: number;
}

export interface ContentRecord {
  /** 32 hex characters, also the sidecar's file name. */
  id: string;
  type: ContentType;
  title: string;
  game: string;
  bookmarks: ContentBookmark[];
  /** The video's name without extension. */
  fileName: string;
  /** Absolute, forward slashes. */
  filePath: string;
  /** Undefined when the video could not be measured. */
  sizeBytes?: number;
  durationSeconds: number;
  createdAt: Date;
  uploadId?: string;
  /** Public URL of the uploaded video (its last path segment is `uploadId`). */
  uploadUrl?: string;
  gameDatabaseId?: number;
  audioTrackNames?: string[];
  isImported: boolean;
  /** The video is the output of CompressVideo. */
  compressed: boolean;
  /** Marked a favourite (SetFavorite); absent otherwise, as in what versions before favourites wrote. */
  favorite?: true;
  gameExePath?: string;
  /** Sessions: the instants the video's first and last frames show. */
  recordedFrom?: Date;
  recordedUntil?: Date;
}

/** The item as `State.content` shows it. */
export function toContentItem(record: ContentRecord): ContentItem {
  const item: ContentItem = {
    id: record.id,
    type: record.type,
    title: record.title,
    game: record.game,
    bookmarks: record.bookmarks.map(toWireBookmark),
    fileName: record.fileName,
    filePath: record.filePath,
    fileSize: record.sizeBytes === undefined ? 'Unknown' : formatContentSize(record.sizeBytes),
    fileSizeKb: record.sizeBytes === undefined ? 0 : Math.floor(record.sizeBytes / 1024),
    duration: formatDuration(record.durationSeconds),
    createdAt: formatLocalDateTime(record.createdAt),
    aiAnalysis: null,
    uploadId: record.uploadId ?? null,
    gameDatabaseId: record.gameDatabaseId ?? null,
    audioTrackNames: record.audioTrackNames ?? null,
    isImported: record.isImported,
    compressed: record.compressed,
  };
  if (record.uploadUrl !== undefined) item.uploadUrl = record.uploadUrl;
  if (record.favorite) item.favorite = true;
  return item;
}

export function toWireBookmark(bookmark: ContentBookmark): Bookmark {
  return {
    id: bookmark.id,
    type: bookmark.type,
    subtype: bookmark.subtype ?? null,
    time: formatDuration(bookmark.seconds),
    aiRating: bookmark.aiRating ?? null,
  };
}

/** A bookmark that arrives in the wire shape (a frontend's, or the active recording's in `State`). */
export function fromWireBookmark(bookmark: Bookmark): ContentBookmark {
  const result: ContentBookmark = { id: bookmark.id, type: bookmark.type, seconds: parseDuration(bookmark.time) ?? 0 };
  if (bookmark.subtype !== null) result.subtype = bookmark.subtype;
  if (bookmark.aiRating !== null) result.aiRating = bookmark.aiRating;
  return result;
}

export const byTime = (a: ContentBookmark, b: ContentBookmark) => a.seconds - b.seconds;
