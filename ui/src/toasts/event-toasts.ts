// Which service events become toasts, in words: refused commands, and the ends of what a person started (a replay,
// a clip, a highlight, a compression, an import, an upload) or a game added (a bookmark). Settings saved get none:
// every control saves as it changes and shows its new value itself. Failed jobs stay on their card in the jobs tray.
// It listens from module load, like the stores, so nothing is missed before the toasts mount.
import type { ContentItem, ContentType, EventContentMap, State } from '@keyframe/core/protocol';
import { onServerEvents } from '../connection';
import { displayTitle } from '../library/content-format';
import { videoHref } from '../library/routes';
import { commandFailureTitle } from './command-failure-titles';
import type { JobOutput } from '../jobs';
import { isShown, linkToast, showToast, shownToast, type Toast, type ToastLink } from './toast-store';

let latestState: State | undefined;

/** Toasts whose link needs an item the State does not list yet; tried again on every State. */
const waitingForLink: { toastId: number; find: (state: State) => ToastLink | undefined }[] = [];

function showWithLink(toast: Parameters<typeof showToast>[0], find: (state: State) => ToastLink | undefined): void {
  waitingForLink.push({ toastId: showToast(toast), find });
  linkWaitingToasts();
}

function linkWaitingToasts(): void {
  for (const waiting of [...waitingForLink]) {
    const link = isShown(waiting.toastId) && latestState ? waiting.find(latestState) : undefined;
    if (link) linkToast(waiting.toastId, link);
    if (link || !isShown(waiting.toastId)) waitingForLink.splice(waitingForLink.indexOf(waiting), 1);
  }
}

/**
 * The items of each type the UI knew before a replay save began. ReplayBufferSaved does not name the new item
 * (SPEC's event is empty), so it is the newest one of its type that was not there before.
 */
const knownItems = new Map<ContentType, Set<string>>();

function noteItemsBefore(type: ContentType): void {
  const known = knownItems.get(type) ?? new Set<string>();
  for (const item of latestState?.content ?? []) if (item.type === type) known.add(item.id);
  knownItems.set(type, known);
}

function openNewItem(type: ContentType): (state: State) => ToastLink | undefined {
  return (state) => {
    const known = knownItems.get(type) ?? new Set<string>();
    const newest = state.content
      .filter((item) => item.type === type && !known.has(item.id))
      .reduce<ContentItem | undefined>((latest, item) => (latest && latest.createdAt >= item.createdAt ? latest : item), undefined);
    if (!newest) return undefined;
    known.add(newest.id);
    knownItems.set(type, known);
    return { label: 'Open', href: videoHref(newest) };
  };
}

const quoted = (title: string) => `“${title}”`;
const baseName = (filePath: string) => filePath.slice(filePath.lastIndexOf('/') + 1);

/** The finished job's own video, named by its event's `output`. */
const openOutput = (output: JobOutput | undefined): Pick<Toast, 'link'> =>
  output ? { link: { label: 'Open', href: videoHref(output) } } : {};

function onClipProgress({ progress, segments, output }: EventContentMap['ClipProgress']): void {
  // A cancel ends with 100 and no segments: nothing was made.
  if (progress < 100 || segments.length === 0) return;
  const title = output?.title.trim() || segments[0]?.title?.trim();
  showToast({
    tone: 'success',
    title: 'Clip saved',
    body: title ? `${quoted(title)} is in Clips.` : 'Added to Clips.',
    ...openOutput(output),
  });
}

function onAiProgress({ status, content, output }: EventContentMap['AiProgress']): void {
  if (status !== 'done') return;
  showToast({ tone: 'success', title: 'Highlight made', body: `From ${quoted(displayTitle(content))}.`, ...openOutput(output) });
}

function onCompressionProgress({ filePath, status, message }: EventContentMap['CompressionProgress']): void {
  if (status === 'done')
    showToast({ tone: 'success', title: 'Video compressed', body: `${quoted(baseName(filePath))} takes less room now.` });
  if (status === 'skipped')
    showToast({ tone: 'success', title: 'Video kept as it was', body: message ?? 'Compressing did not make it smaller.' });
}

function onImportProgress({ status, progress, message }: EventContentMap['ImportProgress']): void {
  // The summary of the import; a summary with status `error` means none was imported (its card says why).
  if (status === 'done' && progress === 100) showToast({ tone: 'success', title: 'Import done', ...(message ? { body: message } : {}) });
}

function onUploadProgress({ fileName, title, status }: EventContentMap['UploadProgress']): void {
  if (status !== 'done') return;
  showWithLink({ tone: 'success', title: 'Upload done', body: `${quoted(title.trim() || fileName)} is online.` }, (state) => {
    const url = state.content.find((item) => baseName(item.filePath) === fileName)?.uploadUrl;
    return url ? { label: 'Open link', href: url, external: true } : undefined;
  });
}

/** Bookmarks come in bursts during a match: one toast counts them. */
let bookmarksInToast = 0;

function onBookmarkCreated(): void {
  bookmarksInToast = shownToast('bookmark') ? bookmarksInToast + 1 : 1;
  showToast({ tone: 'success', key: 'bookmark', title: bookmarksInToast === 1 ? 'Bookmark added' : `${bookmarksInToast} bookmarks added` });
}

onServerEvents({
  State: (state) => {
    latestState = state;
    linkWaitingToasts();
  },
  CommandRejected: ({ method, message }) => void showToast({ tone: 'failure', title: commandFailureTitle(method), body: message }),
  ReplayBufferSaveStarted: () => noteItemsBefore('Buffer'),
  ReplayBufferSaved: () =>
    showWithLink(
      { tone: 'success', title: 'Replay saved', body: 'Added to the Replay Buffer: open it to trim a clip.' },
      openNewItem('Buffer'),
    ),
  ClipProgress: onClipProgress,
  AiProgress: onAiProgress,
  CompressionProgress: onCompressionProgress,
  ImportProgress: onImportProgress,
  UploadProgress: onUploadProgress,
  BookmarkCreated: onBookmarkCreated,
});
