// The actions menu of a library item, shared by its card and its video page.
import type { ContentItem } from '@keyframe/core/protocol';
import type { MenuAction } from './ActionsMenu';
import {
  compressContent,
  copyContentToClipboard,
  copyLink,
  createHighlight,
  openContentFolder,
  openLink,
  setFavorite,
} from './content-commands';
import type { ContentDialogRequest } from './ContentDialogs';

export function contentMenuActions(item: ContentItem, ask: (request: ContentDialogRequest) => void): MenuAction[] {
  const { uploadUrl } = item;
  const actions: MenuAction[] = [
    { label: 'Rename…', onSelect: () => ask({ kind: 'rename', item }) },
    { label: 'Upload…', onSelect: () => ask({ kind: 'upload', item }) },
    // The link the platform gave the last upload (kept with the item, so also after a restart).
    ...(uploadUrl
      ? [
          { label: 'Copy link', onSelect: () => copyLink(uploadUrl) },
          { label: 'Open link', onSelect: () => openLink(uploadUrl) },
        ]
      : []),
    { label: 'Copy to clipboard', onSelect: () => copyContentToClipboard(item) },
    { label: 'Open folder', onSelect: () => openContentFolder(item) },
    item.favorite
      ? { label: 'Remove from favourites', onSelect: () => setFavorite(item, false) }
      : { label: 'Add to favourites', onSelect: () => setFavorite(item, true) },
  ];
  if (!item.compressed) actions.push({ label: 'Compress', onSelect: () => compressContent(item) });
  if (item.type === 'Session' || item.type === 'Buffer') actions.push({ label: 'Create highlight', onSelect: () => createHighlight(item) });
  actions.push({ label: 'Delete…', danger: true, onSelect: () => ask({ kind: 'delete', items: [item] }) });
  return actions;
}
