// How ffmpeg and ffprobe are told to read a user's or a library's file. Left to guess, ffmpeg follows
// whatever a file says it is: a "video" that is really an HLS or concat playlist makes it open the
// URLs or other files the playlist names. A file input may therefore only use local files and pipes,
// and only be read by a demuxer of a real video container.

/** Protocols a file input may open: the file itself (and, through a concat list, the local files it names). */
const LOCAL_PROTOCOLS = 'file,pipe';

/**
 * Demuxers of the media containers users have (MP4/MOV, Matroska/WebM, MPEG-TS, AVI, FLV, WMV,
 * MPEG-PS, Ogg, WAV). Playlists and image sequences are left out: they name other files to open.
 */
export const MEDIA_CONTAINERS = ['mov', 'matroska', 'mpegts', 'avi', 'flv', 'asf', 'mpeg', 'ogg', 'wav'] as const;

/** A demuxer Keyframe forces when it wrote the file itself: its concat lists and MPEG-TS parts. */
export type KnownFormat = (typeof MEDIA_CONTAINERS)[number] | 'concat';

/** The concat protocol (`concat:a.ts|b.ts`, a saved replay's sound), which joins local files byte by byte. */
const CONCAT_PROTOCOL = 'concat:';

/**
 * The input options and `-i` for `file`, to put where the `-i` would go (seek options may come
 * before). `format` forces the demuxer; without it ffmpeg may still only pick a video container.
 * A `concat` list may name only such files, read through the same protocols.
 */
export function fileInput(file: string, format?: KnownFormat): string[] {
  const joined = file.startsWith(CONCAT_PROTOCOL);
  const protocols = joined ? `concat,${LOCAL_PROTOCOLS}` : LOCAL_PROTOCOLS;
  const demuxers = format === 'concat' ? ['concat', ...MEDIA_CONTAINERS] : MEDIA_CONTAINERS;
  return ['-protocol_whitelist', protocols, '-format_whitelist', demuxers.join(','), ...(format ? ['-f', format] : []), '-i', file];
}
