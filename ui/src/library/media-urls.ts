// Addresses of the service's media routes (video with byte ranges, thumbnails, waveform peaks).
// They live on the same HTTP server as the WebSocket, so the base follows the connection's URL.
import { MEDIA_QUERY, MEDIA_ROUTES, wireArtworkPath, type ContentItem } from '@keyframe/core/protocol';
import { connection } from '../connection';

const mediaBase = new URL(connection.url.replace(/^ws/, 'http'));

/** Parameters by their wire names: the compiler refuses a name the media routes do not read. */
type MediaQuery = Partial<Record<(typeof MEDIA_QUERY)[keyof typeof MEDIA_QUERY], string>>;

function mediaUrl(route: string, query: MediaQuery): string {
  const url = new URL(route, mediaBase);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.href;
}

export function videoUrl(item: ContentItem): string {
  return mediaUrl(MEDIA_ROUTES.content, { input: item.filePath, type: item.type.toLowerCase() });
}

export function thumbnailUrl(item: ContentItem, cacheFolder: string): string {
  return mediaUrl(MEDIA_ROUTES.thumbnail, { input: wireArtworkPath(cacheFolder, 'thumbnail', item) });
}

/** One frame of the video at `seconds`, 320 px wide. */
export function frameUrl(filePath: string, seconds: number): string {
  return mediaUrl(MEDIA_ROUTES.thumbnail, { input: filePath, time: seconds.toFixed(2) });
}

export function waveformUrl(item: ContentItem, cacheFolder: string): string {
  return mediaUrl(MEDIA_ROUTES.content, { input: wireArtworkPath(cacheFolder, 'waveform', item), type: item.type.toLowerCase() });
}
