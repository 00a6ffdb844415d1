import type { Bookmark, ContentItem } from '@keyframe/core/protocol';
import { useId, useRef, useState } from 'react';
import { useConnectionStatus } from '../connection';
import { ActionsMenu } from '../library/ActionsMenu';
import { useContentDialogs } from '../library/ContentDialogs';
import { displayTitle, durationSeconds, formatCreatedAt, formatSeconds } from '../library/content-format';
import { contentMenuActions } from '../library/content-menu';
import { SECTION_LABEL, sectionOfType } from '../library/content-types';
import { Dialog } from '../library/Dialog';
import { videoUrl, waveformUrl } from '../library/media-urls';
import { libraryHref, showLibrary } from '../library/routes';
import { useLatestEvent } from '../state/latest-events';
import { BookmarkList } from './BookmarkList';
import { addSegment } from './clip-segments';
import { ClipEditor } from './ClipEditor';
import { Timeline, type TimeRange } from './Timeline';
import { TimelineControls } from './TimelineControls';
import { useItemBookmarks } from './use-item-bookmarks';
import { useVideoItem } from './use-video-item';
import { useWaveform } from './use-waveform';
import '../library/library.css';
import './video.css';

/** The video page of the library item whose URI-encoded file path is `id`. */
export function VideoPage({ id }: { id: string }) {
  const state = useLatestEvent('State');
  const item = useVideoItem(state, id);
  const connected = useConnectionStatus() === 'open';

  if (!state) {
    return (
      <section className="video-page video-page--notice" aria-busy="true" data-testid="video-loading">
        <span className="spinner" aria-hidden="true" />
        <p>Loading the video…</p>
      </section>
    );
  }
  if (!item) {
    return (
      <section className="video-page video-page--notice" data-testid="video-missing">
        <p className="library__empty-title">This video is not in the library</p>
        <p className="video-page__muted">It may have been deleted or moved.</p>
        <a className="button" href={libraryHref('sessions')}>
          Back to the library
        </a>
      </section>
    );
  }
  return <VideoEditor key={item.id} item={item} cacheFolder={state.cacheFolder} connected={connected} />;
}

interface VideoEditorProps {
  item: ContentItem;
  cacheFolder: string;
  connected: boolean;
}

function VideoEditor({ item, cacheFolder, connected }: VideoEditorProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [currentTime, setCurrentTime] = useState(0);
  const [mediaDuration, setMediaDuration] = useState<number>();
  const [selection, setSelection] = useState<TimeRange>();
  const [bookmarkToDelete, setBookmarkToDelete] = useState<Bookmark>();
  const { bookmarks, add: addBookmark, remove: removeBookmark } = useItemBookmarks(item);
  const section = sectionOfType(item.type);
  const [dialog, ask] = useContentDialogs(() => showLibrary(section));
  const peaks = useWaveform(waveformUrl(item, cacheFolder));
  const headingId = useId();
  const duration = mediaDuration ?? durationSeconds(item.duration);
  const title = displayTitle(item);

  const seek = (seconds: number) => {
    const video = videoRef.current;
    if (video) video.currentTime = seconds;
    setCurrentTime(seconds);
  };

  return (
    <section className="video-page" aria-labelledby={headingId} data-testid="video-page" data-file-path={item.filePath}>
      <header className="video-page__header">
        <a className="video-page__back" href={libraryHref(section)}>
          ← {SECTION_LABEL[section]}
        </a>
        <div className="video-page__heading">
          <h1 className="video-page__title" id={headingId} data-testid="video-title">
            {title}
          </h1>
          <p className="video-page__muted">
            {item.game} · {formatCreatedAt(item.createdAt)} · {item.fileSize} · {formatSeconds(durationSeconds(item.duration))}
          </p>
        </div>
        <ActionsMenu label={`Actions for ${title}`} actions={contentMenuActions(item, ask)} />
      </header>

      <div className="video-page__body">
        <div className="video-page__main">
          <video
            ref={videoRef}
            className="video-page__player"
            src={videoUrl(item)}
            controls
            preload="metadata"
            onLoadedMetadata={(event) => {
              if (Number.isFinite(event.currentTarget.duration)) setMediaDuration(event.currentTarget.duration);
            }}
            onTimeUpdate={(event) => setCurrentTime(event.currentTarget.currentTime)}
            onSeeked={(event) => setCurrentTime(event.currentTarget.currentTime)}
            data-testid="video-player"
          />
          <Timeline
            duration={duration}
            currentTime={currentTime}
            bookmarks={bookmarks}
            peaks={peaks}
            selection={selection}
            onSeek={seek}
            onSelect={setSelection}
          />
          <TimelineControls
            currentTime={currentTime}
            duration={duration}
            selection={selection}
            connected={connected}
            onAddBookmark={(type) => addBookmark(type, currentTime)}
            onSelect={setSelection}
            onAddSegment={(range) => {
              addSegment(item, range.start, range.end);
              setSelection(undefined);
            }}
          />
          <h2 className="video-page__subtitle">Bookmarks</h2>
          <BookmarkList bookmarks={bookmarks} onSeek={seek} onDelete={setBookmarkToDelete} disabled={!connected} />
        </div>
        <ClipEditor connected={connected} />
      </div>

      {bookmarkToDelete && (
        <Dialog
          title={`Delete the ${bookmarkToDelete.type} bookmark?`}
          confirmLabel="Delete"
          danger
          onCancel={() => setBookmarkToDelete(undefined)}
          onConfirm={() => {
            removeBookmark(bookmarkToDelete);
            setBookmarkToDelete(undefined);
          }}
          testId="delete-bookmark-dialog"
        >
          <p className="modal__description">
            At {formatSeconds(durationSeconds(bookmarkToDelete.time), true)} in “{title}”.
          </p>
        </Dialog>
      )}
      {dialog}
    </section>
  );
}
