// The commands a person can run on library items, as the protocol spells them.
import type { CommandParameters, ContentItem } from '@keyframe/core/protocol';
import { connection } from '../connection';

/** Characters a title may not hold: it becomes the video's file name. */
export const FORBIDDEN_TITLE_CHARACTERS = /[<>:"/\\|?*]/;

export function renameContent(item: ContentItem, title: string): void {
  connection.send('RenameContent', { FileName: item.fileName, ContentType: item.type, Title: title.trim() });
}

/** One item is a DeleteContent, several one DeleteMultipleContent batch. */
export function deleteContent(items: readonly ContentItem[]): void {
  const [only] = items;
  if (items.length === 1 && only) {
    connection.send('DeleteContent', { FileName: only.fileName, ContentType: only.type });
  } else if (items.length > 1) {
    connection.send('DeleteMultipleContent', { Items: items.map((item) => ({ FileName: item.fileName, ContentType: item.type })) });
  }
}

export function compressContent(item: ContentItem): void {
  connection.send('CompressVideo', { FilePath: item.filePath });
}

export type UploadDetails = Pick<CommandParameters<'UploadContent'>, 'Title' | 'Description' | 'Visibility'>;

export function uploadContent(item: ContentItem, details: UploadDetails): void {
  connection.send('UploadContent', {
    FilePath: item.filePath,
    Game: item.game,
    ...(item.gameDatabaseId === null ? {} : { GameDatabaseId: String(item.gameDatabaseId) }),
    ...details,
  });
}

export function openContentFolder(item: ContentItem): void {
  connection.send('OpenFileLocation', { FilePath: item.filePath });
}

export function copyContentToClipboard(item: ContentItem): void {
  connection.send('CopyFileToClipboard', { FilePath: item.filePath });
}

export function setFavorite(item: ContentItem, favorite: boolean): void {
  connection.send('SetFavorite', { FilePath: item.filePath, ContentType: item.type, Favorite: favorite });
}

/** Opens a web address in the default browser: the service opens it (the desktop host's page cannot), else a new tab. */
export function openLink(url: string): void {
  if (!connection.send('OpenInBrowser', { Url: url })) window.open(url, '_blank', 'noopener,noreferrer');
}

/** Puts a web address on the clipboard as text; resolves with what to tell the person. */
export async function copyLink(url: string): Promise<string> {
  try {
    await navigator.clipboard.writeText(url);
    return 'Link copied';
  } catch {
    return "Couldn't copy the link: the browser did not allow it";
  }
}

export function createHighlight(item: ContentItem): void {
  connection.send('CreateAiClip', { FileName: item.fileName });
}
