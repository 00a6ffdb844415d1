// Bookmarks from integrations, keybinds and frontends: on the active recording (shown in `State`,
// written into the content's metadata at stop), or on the finished recording that covered a past time.
import { randomInt } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import type { BookmarkRequest } from '../sdk/game-integration.js';
import { formatDuration, type Bookmark } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';

/** The active recording, as bookmarks need it. */
export interface ActiveRecordingBookmarks {
  readonly current: { startedAt: Date } | undefined;
  addBookmark(bookmark: Bookmark): void;
}
export const ACTIVE_RECORDING = Symbol('ActiveRecordingBookmarks');

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
    @inject(ACTIVE_RECORDING) private readonly active: ActiveRecordingBookmarks,
    @inject(FINISHED_RECORDINGS) private readonly finished: FinishedRecordingBookmarks,
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('bookmarks');
  }

  /** Adds the bookmark where its time belongs; false when no recording covers it. */
  async add(request: BookmarkRequest, source: string): Promise<boolean> {
    const at = request.at ?? new Date();
    const recording = this.active.current;
    if (recording && at >= recording.startedAt) {
      this.active.addBookmark(this.bookmark(request, at, recording.startedAt));
      this.events.send('BookmarkCreated', {});
      this.logger.info('bookmark added to the recording', { source, type: request.type });
      return true;
    }
    const covering = this.finished.findCovering(at);
    if (covering) {
      await this.finished.addBookmark(covering.id, this.bookmark(request, at, covering.startedAt));
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
    if (!this.active.current) return false;
    this.active.addBookmark(bookmark);
    this.events.send('BookmarkCreated', {});
    this.logger.info('bookmark added to the recording', { source, type: bookmark.type });
    return true;
  }

  private bookmark(request: BookmarkRequest, at: Date, startedAt: Date): Bookmark {
    return {
      id: newBookmarkId(),
      type: request.type,
      subtype: request.subtype ?? null,
      time: formatDuration((at.getTime() - startedAt.getTime()) / 1000),
      aiRating: null,
    };
  }
}
