import type { Bookmark } from '@keyframe/core/protocol';
import { bookmarkTone, countBookmarks } from './content-format';

/** One badge per bookmark type with its count: `Kill 3` green, `Death 1` red. */
export function BookmarkBadges({ bookmarks }: { bookmarks: readonly Bookmark[] }) {
  const counts = countBookmarks(bookmarks);
  if (counts.length === 0) return null;
  return (
    <ul className="bookmark-badges" aria-label="Bookmarks">
      {counts.map(([type, count]) => (
        <li key={type} className={`bookmark-badge bookmark-badge--${bookmarkTone(type)}`} data-testid="bookmark-count">
          {type} <span className="bookmark-badge__count">{count}</span>
        </li>
      ))}
    </ul>
  );
}
