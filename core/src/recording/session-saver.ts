// Keeps a finished Session or Hybrid recording: its cache file is checked, then goes into the library through
// ContentIngest (moved into the content folder, artwork made, added with the recording's bookmarks).
import { rm, stat } from 'node:fs/promises';
import { injectable } from 'tsyringe';
import { probeMedia, type ProbeResult } from '../media/probe.js';
import { ContentIngest } from '../library/content-ingest.js';
import { fromWireBookmark } from '../library/content-item.js';
import type { ContentRecord } from '../library/content-library.js';
import { Logger } from '../support/logger.js';
import type { StartedRecording } from './recording.js';

@injectable()
export class SessionSaver {
  private readonly logger: Logger;

  constructor(
    private readonly ingest: ContentIngest,
    logger: Logger,
  ) {
    this.logger = logger.child('recorder');
  }

  /** The new item; undefined when the user's settings discard a session without bookmarks. Throws when nothing can be kept. */
  async keep(recording: StartedRecording, cacheFile: string, contentFilePath: string, endedAt: Date): Promise<ContentRecord | undefined> {
    const size = await stat(cacheFile).then(
      (file) => file.size,
      () => 0,
    );
    if (size === 0) {
      await rm(cacheFile, { force: true });
      throw new Error('ffmpeg wrote nothing, so there is no video to keep.');
    }
    if (recording.settings.discardSessionsWithoutBookmarks && recording.bookmarks.length === 0) {
      // The user's choice (globally or for this game): a session where nothing happened is not kept.
      await rm(cacheFile, { force: true });
      this.logger.info('session discarded: it has no bookmarks (discardSessionsWithoutBookmarks)', {
        file: cacheFile,
        game: recording.game,
      });
      return undefined;
    }
    const { startedAt, media } = recording;
    let durationSeconds: number;
    let probed: ProbeResult;
    try {
      probed = await probeMedia(media.tools.ffprobe.path, cacheFile);
      if (!probed.streams.some((stream) => stream.type === 'video')) throw new Error('it holds no video');
      durationSeconds = probed.durationSeconds ?? (endedAt.getTime() - startedAt.getTime()) / 1000;
    } catch (error) {
      throw new Error(`The recording ${cacheFile} cannot be read (${(error as Error).message}); it was left there.`);
    }

    const item = await this.ingest.add({
      file: cacheFile,
      moveTo: contentFilePath,
      type: 'Session',
      probed,
      // Bookmarks that arrive while the item is added are kept too.
      liveBookmarks: () => recording.bookmarks.map((entry) => fromWireBookmark(entry.bookmark)),
      meta: {
        game: recording.game,
        durationSeconds,
        gameExePath: recording.exePath ?? null,
        audioTrackNames: recording.contentTrackNames,
        recordedFrom: startedAt,
        recordedUntil: new Date(startedAt.getTime() + durationSeconds * 1000),
      },
      tools: media.tools,
    });
    this.logger.info('recording saved', {
      id: item.id,
      file: item.filePath,
      durationSeconds: item.durationSeconds,
      bookmarks: item.bookmarks.length,
    });
    return item;
  }
}
