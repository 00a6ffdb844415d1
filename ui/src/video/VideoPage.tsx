import type { Bookmark, BookmarkType, ContentItem } from '@keyframe/core/protocol';
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
import { useEditorKeys, type EditorAction } from './editor-keys';
import { FrameStep } from './FrameStep';
import { KeyLegend } from './KeyLegend';
import { withIn, withOut } from './range-edits';
import { Timeline, type TimeRange } from './Timeline';
import { TimelineControls } from './TimelineControls';
import { useFrameRate } from './use-frame-rate';
import { useItemBookmarks } from './use-item-bookmarks';
import { useVideoItem } from './use-video-item';
import { useWaveform } from './use-waveform';
import '../library/library.css';
import './video.css';

/**
 * The video page of the library item whose URI-encoded file path is `id` (`videoHref(item)` in
 * library/routes.ts). It opens ready to trim: the range covers the whole video, a handle at each end.
 */
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
  // Until the person picks or removes a range, the whole video is the range.
  const [picked, setPicked] = useState<{ range: TimeRange | undefined }>();
  const [bookmarkType, setBookmarkType] = useState<BookmarkType>('Manual');
  const [legendOpen, setLegendOpen] = useState(false);
  const [bookmarkToDelete, setBookmarkToDelete] = useState<Bookmark>();
  const { bookmarks, add: addBookmark, remove: removeBookmark } = useItemBookmarks(item);
  const section = sectionOfType(item.type);
  const [dialog, ask] = useContentDialogs(() => showLibrary(section));
  const peaks = useWaveform(waveformUrl(item, cacheFolder));
  const { fps, known: fpsKnown } = useFrameRate(videoUrl(item));
  const headingId = useId();
  const duration = mediaDuration ?? durationSeconds(item.duration);
  const title = displayTitle(item);
  const selection = picked ? picked.range : duration > 0 ? { start: 0, end: duration } : undefined;
  const select = (range: TimeRange | undefined) => setPicked({ range });

  const seek = (seconds: number) => {
    const target = Math.min(Math.max(seconds, 0), duration);
    const video = videoRef.current;
    if (video) video.currentTime = target;
    setCurrentTime(target);
  };
  /** The player's own position: fresher than the last time update while it plays. */
  const now = () => videoRef.current?.currentTime ?? currentTime;
  const stepFrames = (frames: number) => {
    videoRef.current?.pause();
    seek((Math.round(now() * fps) + frames) / fps);
  };

  const actions: Record<EditorAction, () => void> = {
    togglePlay: () => {
      const video = videoRef.current;
      if (!video) return;
      if (video.paused || video.ended) video.play().catch(() => undefined);
      else video.pause();
    },
    secondBack: () => seek(now() - 1),
    secondForward: () => seek(now() + 1),
    frameBack: () => stepFrames(-1),
    frameForward: () => stepFrames(1),
    setIn: () => select(withIn(selection, now(), duration)),
    setOut: () => select(withOut(selection, now())),
    addBookmark: () => {
      if (connected) addBookmark(bookmarkType, now());
    },
    removeSelection: () => select(undefined),
    toggleKeyLegend: () => setLegendOpen((open) => !open),
  };
  useEditorKeys(actions);

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
            fps={fps}
            bookmarks={bookmarks}
            peaks={peaks}
            selection={selection}
            filePath={item.filePath}
            onSeek={seek}
            onSelect={select}
          >
            <FrameStep fps={fps} known={fpsKnown} onStep={stepFrames} />
            <KeyLegend open={legendOpen} onToggle={actions.toggleKeyLegend} />
          </Timeline>
          <TimelineControls
            currentTime={currentTime}
            duration={duration}
            selection={selection}
            connected={connected}
            bookmarkType={bookmarkType}
            onBookmarkTypeChange={setBookmarkType}
            onAddBookmark={actions.addBookmark}
            onSelect={select}
            onAddSegment={(range) => {
              addSegment(item, range.start, range.end);
              select(undefined);
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
