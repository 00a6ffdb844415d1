// The bookmarks of a library item as the page shows them: the listed ones plus those just added
// (shown at once, kept until State lists them), with add and delete sent to the service.
import { formatDuration, type Bookmark, type BookmarkType, type ContentItem } from '@keyframe/core/protocol';
import { useState } from 'react';
import { connection, useServerEvent } from '../connection';
import { durationSeconds } from '../library/content-format';

const randomBookmarkId = () => 1 + Math.floor(Math.random() * 2147483646);

const byTime = (a: Bookmark, b: Bookmark) => durationSeconds(a.time) - durationSeconds(b.time);

export interface ItemBookmarks {
  /** In time order. */
  bookmarks: Bookmark[];
  add: (type: BookmarkType, seconds: number) => void;
  remove: (bookmark: Bookmark) => void;
}

export function useItemBookmarks(item: ContentItem): ItemBookmarks {
  const [pending, setPending] = useState<readonly Bookmark[]>([]);
  const listed = new Set(item.bookmarks.map((bookmark) => bookmark.id));
  const bookmarks = [...item.bookmarks, ...pending.filter((bookmark) => !listed.has(bookmark.id))].sort(byTime);

  // A refused AddBookmark leaves its bookmark nowhere to go.
  useServerEvent('CommandRejected', ({ method }) => {
    if (method === 'AddBookmark') setPending([]);
  });

  const add = (type: BookmarkType, seconds: number) => {
    const bookmark: Bookmark = { id: randomBookmarkId(), type, subtype: null, time: formatDuration(seconds), aiRating: null };
    const sent = connection.send('AddBookmark', {
      FilePath: item.filePath,
      Type: bookmark.type,
      Time: bookmark.time,
      ContentType: item.type,
      Id: bookmark.id,
    });
    if (sent) setPending((current) => [...current, bookmark]);
  };

  const remove = (bookmark: Bookmark) => {
    connection.send('DeleteBookmark', { FilePath: item.filePath, ContentType: item.type, Id: bookmark.id });
    setPending((current) => current.filter((each) => each.id !== bookmark.id));
  };

  return { bookmarks, add, remove };
}
