// The library item a video page shows, found by its route id (the file path). A rename moves the
// file: the page follows the item by its content id and rewrites its address.
import type { ContentItem, State } from '@keyframe/core/protocol';
import { useEffect, useState } from 'react';
import { videoHref } from '../library/routes';

function decodedPath(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

export function useVideoItem(state: State | undefined, id: string): ContentItem | undefined {
  const [followedId, setFollowedId] = useState<string>();
  const path = decodedPath(id);
  const byPath = state?.content.find((item) => item.filePath === path || item.filePath === id);
  const item = byPath ?? state?.content.find((candidate) => candidate.id === followedId);
  // Remembered from the render that found it (React re-renders at once), for when its path changes.
  if (item && item.id !== followedId) setFollowedId(item.id);

  const moved = item !== undefined && byPath === undefined;
  useEffect(() => {
    if (moved) window.history.replaceState(null, '', videoHref(item));
  }, [moved, item]);
  return item;
}
