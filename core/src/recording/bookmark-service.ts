// Bookmarks from integrations, keybinds and frontends: on the active recording (shown in `State`,
// written into the content's metadata at stop), or on the finished recording that covered a past time.
import { randomInt } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import type { BookmarkRequest } from '../sdk/game-integration.js';
import { formatDuration, parseDuration, type Bookmark } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { RecorderService } from './recorder-service.js';

/** The running recording as bookmarks need it (`RecorderService.current`). */
export interface BookmarkableRecording {
  readonly startedAt: Date;
  /** False when the recording is saved already. */
  addBookmark(bookmark: Bookmark, seconds: number): boolean;
}

/** Finished recordings, as bookmarks need them. */
export interface FinishedRecordingBookmarks {
  /** The finished recording whose time span holds `at`, with the instant its video starts. */
  findCovering(at: Date): { id: string; startedAt: Date } | undefined;
  addBookmark(id: string, bookmark: Bookmark): Promise<void>;
}
export const FINISHED_RECORDINGS = Symbol('FinishedRecordingBookmarks');

export const newBookmarkId = () => randomInt(1, 2 ** 31 - 1);

@injectable()
export class BookmarkService {
  private readonly logger: Logger;

  constructor(
    @inject(RecorderService) private readonly recorder: { readonly current: BookmarkableRecording | undefined },
    @inject(FINISHED_RECORDINGS) private readonly finished: FinishedRecordingBookmarks,
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('bookmarks');
  }

  /** Adds the bookmark where its time belongs; false when no recording covers it. */
  async add(request: BookmarkRequest, source: string): Promise<boolean> {
    const at = request.at ?? new Date();
    const recording = this.recorder.current;
    const seconds = recording ? (at.getTime() - recording.startedAt.getTime()) / 1000 : -1;
    if (recording && seconds >= 0 && recording.addBookmark(this.bookmark(request, seconds), seconds)) {
      this.events.send('BookmarkCreated', {});
      this.logger.info('bookmark added to the recording', { source, type: request.type });
      return true;
    }
    const covering = this.finished.findCovering(at);
    if (covering) {
      await this.finished.addBookmark(covering.id, this.bookmark(request, (at.getTime() - covering.startedAt.getTime()) / 1000));
      this.logger.info('bookmark added to a finished recording', { source, type: request.type, content: covering.id });
      return true;
    }
    this.logger.info('bookmark dropped: no recording covers its time', { source, type: request.type, at: at.toISOString() });
    return false;
  }

  /**
   * A bookmark a frontend placed on the running recording (its own id and time): shown in `State`,
   * announced with `BookmarkCreated`. False when nothing is recording.
   */
  addToRecording(bookmark: Bookmark, source: string): boolean {
    // The frontend's time is its offset on the recording's clock: read once here, kept verbatim for the library.
    if (!this.recorder.current?.addBookmark(bookmark, parseDuration(bookmark.time) ?? 0)) return false;
    this.events.send('BookmarkCreated', {});
    this.logger.info('bookmark added to the recording', { source, type: bookmark.type });
    return true;
  }

  private bookmark(request: BookmarkRequest, seconds: number): Bookmark {
    return {
      id: newBookmarkId(),
      type: request.type,
      subtype: request.subtype ?? null,
      time: formatDuration(seconds),
      aiRating: null,
    };
  }
}
