// Until the State publisher (REDESIGN §4.2 item 1) lands: `State.content` follows the library's items.
import { toContentItem } from '../library/content-item.js';
import type { ContentLibrary } from '../library/content-library.js';
import type { StateStore } from '../state/state-store.js';

/** Mirrors every change of `library` into `state`; the returned function stops that. */
export function projectContent(library: ContentLibrary, state: StateStore): () => void {
  return library.events.on('changed', (items) => state.update({ content: items.map(toContentItem) }));
}
