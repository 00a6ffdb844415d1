// Keeps a finished Session or Hybrid recording: its cache file is probed, moved into the content folder and
// added to the library with its metadata, thumbnail and waveform and the recording's bookmarks.
import { rm, stat } from 'node:fs/promises';
import { injectable } from 'tsyringe';
import { moveFile } from '../media/move-file.js';
import { probeMedia, type ProbeResult } from '../media/probe.js';
import { ContentArtwork } from '../library/content-artwork.js';
import { ContentLibrary, type ContentRecord } from '../library/content-library.js';
import type { Bookmark } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import type { StartedRecording } from './recording.js';

@injectable()
export class SessionSaver {
  private readonly logger: Logger;

  constructor(private readonly library: ContentLibrary, private readonly artwork: ContentArtwork, logger: Logger) {
    this.logger = logger.child('recorder');
  }

  /** The new item; undefined when the user's settings discard a session without bookmarks. Throws when nothing can be kept. */
  async keep(recording: StartedRecording, cacheFile: string, contentFilePath: string, endedAt: Date): Promise<ContentRecord | undefined> {
    const size = await stat(cacheFile).then((file) => file.size, () => 0);
    if (size === 0) {
      await rm(cacheFile, { force: true });
      throw new Error('ffmpeg wrote nothing, so there is no video to keep.');
    }
    if (recording.settings.discardSessionsWithoutBookmarks && recording.bookmarks.length === 0) {
      // The user's choice (globally or for this game): a session where nothing happened is not kept.
      await rm(cacheFile, { force: true });
      this.logger.info('session discarded: it has no bookmarks (discardSessionsWithoutBookmarks)', { file: cacheFile, game: recording.game });
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

    const filePath = await moveFile(cacheFile, contentFilePath);
    const bookmarks = (): Bookmark[] => recording.bookmarks.map((entry) => entry.bookmark);
    let saved = bookmarks();
    let item = await this.artwork.addWithArtwork({
      type: 'Session',
      filePath,
      game: recording.game,
      durationSeconds,
      bookmarks: saved,
      gameExePath: recording.exePath ?? null,
      audioTrackNames: recording.contentTrackNames,
      recordedFrom: startedAt,
      recordedUntil: new Date(startedAt.getTime() + durationSeconds * 1000),
    }, probed, media.tools);
    // Bookmarks that arrived while the metadata was written.
    while (recording.bookmarks.length > saved.length) {
      saved = bookmarks();
      item = await this.library.update(item.id, { bookmarks: saved });
    }
    this.logger.info('recording saved', { id: item.id, file: filePath, duration: item.duration, bookmarks: saved.length });
    return item;
  }
}
