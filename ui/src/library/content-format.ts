// How content items read in the UI: names, lengths, dates, bookmark tallies.
import { parseDuration, type Bookmark, type BookmarkType, type ContentItem } from '@keyframe/core/protocol';
import { defaultTitle } from '../format/default-title';

const twoDigits = (value: number) => String(Math.floor(value)).padStart(2, '0');

/** Seconds as `m:ss`, `h:mm:ss` from an hour; `withTenths` adds `.t` (timeline positions). */
export function formatSeconds(seconds: number, withTenths = false): string {
  // Counted in tenths with a hair added: 2.3 as a float is 2.2999…, which floored would read 2.2.
  const tenths = Math.floor(Math.max(0, seconds) * 10 + 1e-6);
  const whole = Math.floor(tenths / 10);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor(whole / 60) % 60;
  const clock = hours > 0 ? `${hours}:${twoDigits(minutes)}:${twoDigits(whole % 60)}` : `${minutes}:${twoDigits(whole % 60)}`;
  return withTenths ? `${clock}.${tenths % 10}` : clock;
}

/** A wire duration in seconds; 0 when it cannot be read. */
export function durationSeconds(duration: string): number {
  return parseDuration(duration) ?? 0;
}

export function displayTitle(item: ContentItem): string {
  return item.title.trim() || defaultTitle(item.game, item.createdAt);
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatCreatedAt(createdAt: string): string {
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? createdAt : dateFormat.format(date);
}

/** Kills, assists and goals are good moments (green), deaths bad ones (red), the rest neutral. */
export type BookmarkTone = 'positive' | 'negative' | 'neutral';

export function bookmarkTone(type: BookmarkType): BookmarkTone {
  if (type === 'Kill' || type === 'Assist' || type === 'Goal') return 'positive';
  return type === 'Death' ? 'negative' : 'neutral';
}

/** How many bookmarks of each type, in the order they first appear. */
export function countBookmarks(bookmarks: readonly Bookmark[]): [BookmarkType, number][] {
  const counts = new Map<BookmarkType, number>();
  for (const bookmark of bookmarks) counts.set(bookmark.type, (counts.get(bookmark.type) ?? 0) + 1);
  return [...counts];
}
