// The file format of a library item: `<cache>/metadata/<TypeFolder>/<id>.json`.
// Version 2 (this one) stores seconds, ISO dates (UTC), bytes, and leaves absent fields out.
// Version 1 (no `version` field) was the wire `ContentItem` plus `recordedFrom`, `recordedUntil`
// and `gameExePath`; it is still read, so a library whose migration failed or that an older version
// wrote into a cache folder chosen later stays usable, and it is rewritten as version 2 by the migration.
import { Type, type Static } from '#typebox';
import { BookmarkType, ContentItem, ContentType, describeProblems, formatContentSize, parseDuration } from '../protocol/index.js';
import { fromWireBookmark, type ContentBookmark, type ContentRecord } from './content-item.js';

export const SIDECAR_VERSION = 2;

const IsoDate = Type.String({ format: 'date-time' });

const SidecarV2 = Type.Object({
  version: Type.Literal(SIDECAR_VERSION),
  id: Type.String(),
  type: ContentType,
  title: Type.String(),
  game: Type.String(),
  bookmarks: Type.Array(
    Type.Object({
      id: Type.Integer(),
      type: BookmarkType,
      subtype: Type.Optional(Type.String()),
      seconds: Type.Number({ minimum: 0 }),
      aiRating: Type.Optional(Type.Integer()),
    }),
  ),
  fileName: Type.String(),
  filePath: Type.String(),
  sizeBytes: Type.Optional(Type.Integer({ minimum: 0 })),
  durationSeconds: Type.Number({ minimum: 0 }),
  createdAt: IsoDate,
  uploadId: Type.Optional(Type.String()),
  uploadUrl: Type.Optional(Type.String()),
  gameDatabaseId: Type.Optional(Type.Integer()),
  audioTrackNames: Type.Optional(Type.Array(Type.String())),
  isImported: Type.Boolean(),
  compressed: Type.Boolean(),
  favorite: Type.Optional(Type.Literal(true)),
  gameExePath: Type.Optional(Type.String()),
  recordedFrom: Type.Optional(IsoDate),
  recordedUntil: Type.Optional(IsoDate),
});
export type SidecarV2 = Static<typeof SidecarV2>;

const SidecarV1 = Type.Intersect([
  ContentItem,
  Type.Object({
    recordedFrom: Type.Optional(Type.String()),
    recordedUntil: Type.Optional(Type.String()),
    gameExePath: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  }),
]);
type SidecarV1 = Static<typeof SidecarV1>;

export type SidecarReading = { ok: true; record: ContentRecord; version: 1 | typeof SIDECAR_VERSION } | { ok: false; problems: string[] };

/** Reads a parsed sidecar of either version; `videoBytes` is the video's size now, if known (v1 kept only a rounded one). */
export function decodeSidecar(value: unknown, videoBytes: number | undefined): SidecarReading {
  const isV2 = typeof value === 'object' && value !== null && 'version' in value;
  const problems = isV2 ? describeProblems(SidecarV2, value) : describeProblems(SidecarV1, value);
  if (problems.length > 0) return { ok: false, problems };
  return isV2
    ? { ok: true, version: SIDECAR_VERSION, record: fromV2(value as SidecarV2) }
    : { ok: true, version: 1, record: fromV1(value as SidecarV1, videoBytes) };
}

export function encodeSidecar(record: ContentRecord): string {
  return `${JSON.stringify(toSidecar(record), null, 2)}\n`;
}

/** The version 2 sidecar of `record` as a value (also what the library index keeps of each). */
export function toSidecar(record: ContentRecord): SidecarV2 {
  return {
    version: SIDECAR_VERSION,
    ...record,
    createdAt: record.createdAt.toISOString(),
    recordedFrom: record.recordedFrom?.toISOString(),
    recordedUntil: record.recordedUntil?.toISOString(),
  };
}

/** A record as the library index keeps it: its version 2 sidecar without `version`. */
export type IndexedSidecar = Omit<SidecarV2, 'version'>;

export function toIndexedSidecar(record: ContentRecord): IndexedSidecar {
  const { version: _version, ...sidecar } = toSidecar(record);
  return sidecar;
}

/**
 * A record from what the library index keeps, which this service wrote after checking the sidecar: only
 * what tells a damaged index from a sound one is checked (a full check costs more than reading it), and
 * the parsed value becomes the record in place (a copy of every item would cost as much again).
 */
export function fromIndexedSidecar(value: unknown, id: string): ContentRecord | undefined {
  const entry = value as Partial<IndexedSidecar> | null;
  if (typeof entry !== 'object' || entry === null || entry.id !== id || !Array.isArray(entry.bookmarks)) return undefined;
  if (typeof entry.createdAt !== 'string') return undefined;
  const record = entry as Omit<IndexedSidecar, 'createdAt' | 'recordedFrom' | 'recordedUntil'> & Partial<Record<DateField, string | Date>>;
  for (const field of DATE_FIELDS) if (typeof record[field] === 'string') record[field] = new Date(record[field]);
  const created = record.createdAt as Date;
  return Number.isNaN(created.getTime()) ? undefined : (record as ContentRecord);
}

type DateField = 'createdAt' | 'recordedFrom' | 'recordedUntil';
const DATE_FIELDS: readonly DateField[] = ['createdAt', 'recordedFrom', 'recordedUntil'];

function fromV2(sidecar: SidecarV2): ContentRecord {
  const { version: _version, createdAt, recordedFrom, recordedUntil, ...rest } = sidecar;
  const record: ContentRecord = { ...rest, createdAt: new Date(createdAt) };
  if (recordedFrom !== undefined) record.recordedFrom = new Date(recordedFrom);
  if (recordedUntil !== undefined) record.recordedUntil = new Date(recordedUntil);
  return record;
}

function fromV1(sidecar: SidecarV1, videoBytes: number | undefined): ContentRecord {
  const record: ContentRecord = {
    id: sidecar.id,
    type: sidecar.type,
    title: sidecar.title,
    game: sidecar.game,
    bookmarks: sidecar.bookmarks.map(fromWireBookmark) satisfies ContentBookmark[],
    fileName: sidecar.fileName,
    filePath: sidecar.filePath,
    durationSeconds: parseDuration(sidecar.duration) ?? 0,
    createdAt: new Date(sidecar.createdAt),
    isImported: sidecar.isImported,
    compressed: sidecar.compressed,
  };
  const sizeBytes = v1Bytes(sidecar, videoBytes);
  if (sizeBytes !== undefined) record.sizeBytes = sizeBytes;
  const optional = {
    uploadId: sidecar.uploadId ?? undefined,
    uploadUrl: sidecar.uploadUrl,
    gameDatabaseId: sidecar.gameDatabaseId ?? undefined,
    audioTrackNames: sidecar.audioTrackNames ?? undefined,
    gameExePath: sidecar.gameExePath ?? undefined,
    recordedFrom: sidecar.recordedFrom === undefined ? undefined : new Date(sidecar.recordedFrom),
    recordedUntil: sidecar.recordedUntil === undefined ? undefined : new Date(sidecar.recordedUntil),
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) Object.assign(record, { [key]: value });
  return record;
}

/**
 * Version 1 kept the size as `fileSize` text and whole KiB. The video's size now is used when it agrees
 * with both; otherwise the first byte count of that KiB that shows the same text, so the item looks as before.
 */
function v1Bytes(sidecar: SidecarV1, videoBytes: number | undefined): number | undefined {
  if (sidecar.fileSize === 'Unknown' && sidecar.fileSizeKb === 0) return undefined;
  const candidates = [videoBytes, sidecar.fileSizeKb * 1024, sidecar.fileSizeKb * 1024 + 1023];
  const shown = (bytes: number | undefined): bytes is number =>
    bytes !== undefined && Math.floor(bytes / 1024) === sidecar.fileSizeKb && formatContentSize(bytes) === sidecar.fileSize;
  return candidates.find(shown) ?? sidecar.fileSizeKb * 1024;
}
