// Where the library's links lead, as routes of the shell's router.
import type { ContentItem } from '@keyframe/core/protocol';
import { navigate, routeHref } from '../navigation';
import type { LibrarySection } from './content-types';

export function libraryHref(section: LibrarySection): string {
  return routeHref({ page: 'library', section });
}

/** The video page of an item: its file path, URI-encoded, is the id. */
export function videoHref(item: Pick<ContentItem, 'filePath'>): string {
  return routeHref({ page: 'video', id: encodeURIComponent(item.filePath) });
}

export function showLibrary(section: LibrarySection): void {
  navigate({ page: 'library', section });
}
