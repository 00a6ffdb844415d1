// The wire's small facts, written once for the service and the UI: value formats (protocol-gaps.md §1: durations
// as `hh:mm:ss.fffffff`, local ISO date-times, file sizes as the reference shows them, paths with forward slashes),
// the media routes and artwork layout (§10), and the WebSocket close codes. No Node built-ins: the UI bundles it.
import { TYPE_FOLDERS, type ContentType, type EncodeLevel } from './models.js';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** An `EncodeLevel` in words, as notices and frontends show it: `ultrafast, 30 fps, 720p`. */
export function describeEncodeLevel(level: EncodeLevel): string {
  return [level.preset, `${level.frameRate} fps`, level.resolution].filter((part) => part !== null).join(', ');
}

/** Seconds as `hh:mm:ss`, plus `.fffffff` when fractional and a `d.` prefix past 24 h. */
export function formatDuration(seconds: number): string {
  const ticks = Math.round(Math.max(0, seconds) * 1e7);
  const totalSeconds = Math.floor(ticks / 1e7);
  const fraction = ticks % 1e7;
  const days = Math.floor(totalSeconds / 86400);
  const clock = `${pad(Math.floor(totalSeconds / 3600) % 24)}:${pad(Math.floor(totalSeconds / 60) % 60)}:${pad(totalSeconds % 60)}`;
  return `${days > 0 ? `${days}.` : ''}${clock}${fraction > 0 ? `.${pad(fraction, 7)}` : ''}`;
}

/** Parses `[d.]hh:mm:ss[.f…]` into seconds; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = /^(?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?$/.exec(text);
  if (!match) return undefined;
  const [, days = '0', hours, minutes, secs, fraction = ''] = match;
  if (Number(minutes) > 59 || Number(secs) > 59) return undefined;
  return Number(days) * 86400 + Number(hours) * 3600 + Number(minutes) * 60 + Number(secs) + (fraction ? Number(`0.${fraction}`) : 0);
}

/** ISO 8601 in local time with its offset, e.g. `2026-08-01T12:00:00.123+02:00`. */
export function formatLocalDateTime(date: Date): string {
  const offsetMinutes = -date.getTimezoneOffset();
  const sign = offsetMinutes >= 0 ? '+' : '-';
  const offset = `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}${offset}`;
}

/** A path as frontends see it: forward slashes on every platform. */
export const toWirePath = (filePath: string) => filePath.replaceAll('\\', '/');

const MIB = 1024 * 1024;

// Binary units written MB and GB, as the reference shows them; only the step up to GB differs by field.
const formatSize = (bytes: number, gigabyteFromMib: number) => {
  const mebibytes = bytes / MIB;
  return mebibytes >= gigabyteFromMib ? `${(mebibytes / 1024).toFixed(2)} GB` : `${mebibytes.toFixed(2)} MB`;
};

/** `fileSize` of a library item (protocol-gaps §7.3): `123.45 MB` below 1000 MiB, `1.23 GB` from there. */
export const formatContentSize = (bytes: number) => formatSize(bytes, 1000);

/** `fileSize` of a `RecoveryPrompt` file (protocol-gaps §6.3): `12.34 MB`, or `1.23 GB` from 1024 MiB upward. */
export const formatRecoverySize = (bytes: number) => formatSize(bytes, 1024);

/** The media server's routes (protocol-gaps §10), beside the WebSocket on the same HTTP server. */
export const MEDIA_ROUTES = { content: '/api/content', thumbnail: '/api/thumbnail' } as const;

/** Query parameters of the media routes: the file, the lower-case content type, a frame's second. */
export const MEDIA_QUERY = { input: 'input', type: 'type', time: 'time' } as const;

/** What the cache folder keeps for each library item, by the folder that holds each kind. */
export const ARTWORK_FOLDERS = { thumbnail: 'thumbnails', waveform: 'waveforms' } as const;
export type ArtworkKind = keyof typeof ARTWORK_FOLDERS;
/** How an artwork file's name ends, after the item's id (or, at the paths the reference frontend builds, its fileName). */
export const ARTWORK_SUFFIXES: Readonly<Record<ArtworkKind, string>> = { thumbnail: '.jpeg', waveform: '.peaks.json' };

/**
 * Where an artwork lies below the cache folder, one name per part: `thumbnails/<typeFolder>/<id>.jpeg` or
 * `waveforms/<typeFolder>/<id>.peaks.json`. The service joins them with `path.join`, frontends with `/`.
 */
export function artworkParts(kind: ArtworkKind, typeFolder: string, id: string): [string, string, string] {
  return [ARTWORK_FOLDERS[kind], typeFolder, `${id}${ARTWORK_SUFFIXES[kind]}`];
}

/** The artwork's path as a frontend sends it to the media routes: under the wire `cacheFolder`, with `/`. */
export function wireArtworkPath(cacheFolder: string, kind: ArtworkKind, item: { type: ContentType; id: string }): string {
  return [cacheFolder, ...artworkParts(kind, TYPE_FOLDERS[item.type], item.id)].join('/');
}

/** Codes and reasons the service closes a frontend's WebSocket with. */
export const CLOSE_REPLACED = { code: 4000, reason: 'Replaced by a newer connection' } as const;
export const CLOSE_SHUTDOWN = { code: 1001, reason: 'Keyframe is shutting down' } as const;
export const CLOSE_NOT_READING = { code: 1008, reason: 'Too much unread output: the frontend stopped reading' } as const;
/** On the legacy port: the frontend's version check reloads it onto the current address. */
export const CLOSE_PORT_MOVED = { code: 1000, reason: 'Port moved - reload' } as const;
