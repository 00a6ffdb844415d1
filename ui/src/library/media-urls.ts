// Addresses of the service's media routes (video with byte ranges, thumbnails, waveform peaks).
// They live on the same HTTP server as the WebSocket, so the base follows the connection's URL.
import { TYPE_FOLDERS, type ContentItem } from '@keyframe/core/protocol';
import { connection } from '../connection';

const mediaBase = new URL(connection.url.replace(/^ws/, 'http'));

function mediaUrl(route: string, query: Record<string, string>): string {
  const url = new URL(route, mediaBase);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.href;
}

export function videoUrl(item: ContentItem): string {
  return mediaUrl('/api/content', { input: item.filePath, type: item.type.toLowerCase() });
}

export function thumbnailUrl(item: ContentItem, cacheFolder: string): string {
  return mediaUrl('/api/thumbnail', { input: `${cacheFolder}/thumbnails/${TYPE_FOLDERS[item.type]}/${item.id}.jpeg` });
}

/** One frame of the video at `seconds`, 320 px wide. */
export function frameUrl(filePath: string, seconds: number): string {
  return mediaUrl('/api/thumbnail', { input: filePath, time: seconds.toFixed(2) });
}

export function waveformUrl(item: ContentItem, cacheFolder: string): string {
  return mediaUrl('/api/content', { input: `${cacheFolder}/waveforms/${TYPE_FOLDERS[item.type]}/${item.id}.peaks.json`, type: item.type.toLowerCase() });
}
