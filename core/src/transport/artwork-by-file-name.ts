// The reference frontend builds artwork paths from an item's fileName (protocol-gaps §10):
// `<cacheFolder>/thumbnails/<TypeFolder>/<fileName>.jpeg` and `<cacheFolder>/waveforms/<TypeFolder>/<fileName>.peaks.json`.
// Keyframe keeps artwork by item id, which a rename does not change: such a path is read as the item
// it names, and answered with that item's artwork.
import path from 'node:path';
import { ARTWORK_FOLDERS, ARTWORK_SUFFIXES, artworkParts, TYPE_FOLDERS, type ArtworkKind, type ContentType } from '../protocol/index.js';

/** Finds the library item of a type with this fileName (no extension). */
export type ItemByFileName = (type: ContentType, fileName: string) => { id: string } | undefined;

/**
 * Where the artwork of the item that `file` names by its fileName lies, or undefined when `file` is not
 * `<cacheFolder>/<kind's folder>/<TypeFolder>/<fileName><suffix>` or no item has that type and fileName.
 */
export function artworkByFileName(file: string, kind: ArtworkKind, cacheFolder: string, itemNamed: ItemByFileName): string | undefined {
  const parts = path.relative(path.resolve(cacheFolder, ARTWORK_FOLDERS[kind]), path.resolve(file)).split(path.sep);
  if (parts.length !== 2) return undefined;
  const [typeFolder = '', name = ''] = parts;
  const type = (Object.keys(TYPE_FOLDERS) as ContentType[]).find((candidate) => TYPE_FOLDERS[candidate] === typeFolder);
  const suffix = ARTWORK_SUFFIXES[kind];
  if (!type || !name.endsWith(suffix) || name.length === suffix.length) return undefined;
  const item = itemNamed(type, name.slice(0, -suffix.length));
  return item && path.join(cacheFolder, ...artworkParts(kind, typeFolder, item.id));
}
