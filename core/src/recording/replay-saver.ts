// Saves the replay buffer of a running recording as a Buffer item: the last `replayBufferDuration`
// seconds, joined from the closed segments, with the bookmarks that fall in them re-timed.
import { inject, injectable } from 'tsyringe';
import { concatSegments, joinedSegmentsUrl, type BufferSpan, type ReplayBuffer } from '../media/replay-buffer.js';
import { readMp4Duration } from '../media/mp4-layout.js';
import { probeMedia } from '../media/probe.js';
import { CommandError } from '../protocol/refusal.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { fromWireBookmark } from '../library/content-item.js';
import { ContentIngest, type ArtworkSources } from '../library/content-ingest.js';
import { ContentLibrary, type ContentRecord } from '../library/content-library.js';
import { Notifier } from '../notices/notifier.js';
import { Logger } from '../support/logger.js';
import { fileStamp, type StartedRecording } from './recording.js';

/** A save waits this long beyond one segment for the segment being written to close. */
const FLUSH_GRACE_MS = 5_000;

@injectable()
export class ReplaySaver {
  private readonly logger: Logger;

  constructor(
    private readonly library: ContentLibrary,
    private readonly ingest: ContentIngest,
    private readonly notifier: Notifier,
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('recorder');
  }

  /**
   * Saves the last `replayBufferDuration` seconds as a Buffer item: `ReplayBufferSaveStarted` at once (the save is
   * accepted: the caller checked there is a running recording with a buffer), `ReplayBufferSaved` once it is written.
   * The segment that holds the moment of the request is included once ffmpeg closes it (at most
   * one segment, ~2 s, later), so that moment is in the file; the length is whole segments
   * (rounded up), less when less is buffered. Saves run one at a time, each into its own file.
   */
  save(recording: StartedRecording, buffer: ReplayBuffer): Promise<ContentRecord> {
    const requestedAt = new Date();
    // The segment that holds this moment (not the one being written: the encoder's output lags the
    // capture by its look-ahead). Queued synchronously, so a stop that follows waits for this save.
    const until = Math.floor((requestedAt.getTime() - recording.startedAt.getTime()) / 1000 / buffer.limits.segmentSeconds);
    this.logger.info('replay buffer save requested', { segment: until });
    this.events.send('ReplayBufferSaveStarted', {});
    const save = recording.saves.then(() => this.saveNow(recording, buffer, until, requestedAt));
    recording.saves = save.then(
      () => undefined,
      () => undefined,
    );
    return save;
  }

  private async saveNow(recording: StartedRecording, buffer: ReplayBuffer, until: number, requestedAt: Date): Promise<ContentRecord> {
    const { tools, audioTrackNames } = recording.media;
    const began = Date.now();
    try {
      const flushed = await buffer.waitUntilComplete(until, buffer.limits.segmentSeconds * 1000 + FLUSH_GRACE_MS);
      if (!flushed)
        this.logger.warn('the replay segment being written did not close in time: saving the segments before it', { segment: until });
      const waitedMs = Date.now() - began;
      const span = await buffer.take(recording.plan.bufferSeconds, until);
      if (!span) throw new Error('Nothing has been buffered yet: try again in a few seconds.');
      let target = this.library.contentPath('Buffer', recording.game, `${fileStamp(requestedAt)}.mp4`);
      // The artwork comes from the segments while they are joined: the save takes about as long as the join.
      const sources = segmentArtwork(span);
      const early = sources && this.ingest.prepareArtwork(sources, tools);
      const joinBegan = Date.now();
      try {
        target = await concatSegments({
          ffmpegPath: tools.ffmpeg.path,
          segments: span.segments,
          target,
          audioTrackNames: [...audioTrackNames],
          logger: this.logger,
        });
      } catch (error) {
        if (early) await this.ingest.discardArtwork(await early);
        throw error;
      } finally {
        span.release();
      }
      const joinMs = Date.now() - joinBegan;
      // The joined file's length read from its index as ffprobe reads it, without starting ffprobe.
      const durationSeconds =
        (await readMp4Duration(target).catch(() => undefined)) ??
        (await probeMedia(tools.ffprobe.path, target)).durationSeconds ??
        span.durationSeconds;
      const spanEnd = span.startSeconds + durationSeconds;
      const bookmarks = recording.bookmarks
        .filter(({ seconds }) => seconds >= span.startSeconds && seconds <= spanEnd)
        .map(({ bookmark, seconds }) => ({ ...fromWireBookmark(bookmark), seconds: seconds - span.startSeconds }));
      const recordedFrom = new Date(recording.startedAt.getTime() + span.startSeconds * 1000);
      const item = await this.ingest.add({
        file: target,
        type: 'Buffer',
        ownsFile: true,
        ...(early ? { artwork: early } : {}),
        // Known without a probe: the file holds every stream of the segments.
        artworkSources: {
          picture: { video: target, durationSeconds },
          sound: { video: target, audioStreams: audioTrackNames.length, durationSeconds },
        },
        meta: {
          game: recording.game,
          durationSeconds,
          bookmarks,
          createdAt: requestedAt,
          gameExePath: recording.exePath ?? null,
          audioTrackNames: recording.contentTrackNames,
          recordedFrom,
          recordedUntil: new Date(recordedFrom.getTime() + durationSeconds * 1000),
        },
        tools,
      });
      this.events.send('ReplayBufferSaved', {});
      this.logger.info('replay buffer saved', {
        id: item.id,
        file: target,
        segments: span.segments.length,
        from: span.startSeconds,
        duration: durationSeconds,
        bookmarks: bookmarks.length,
        waitedForSegmentMs: waitedMs,
        joinMs,
        tookMs: Date.now() - began,
      });
      return item;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error('replay buffer not saved', { error: message });
      this.notifier.showModal({
        title: 'Replay Save Failed',
        description: `The replay buffer could not be saved: ${message}`,
        type: 'error',
      });
      throw new CommandError('Failed', `The replay buffer could not be saved: ${message}`);
    }
  }
}

/**
 * A saved replay's artwork from its segments: the thumbnail from the middle one, the sound read
 * through the `concat:` protocol (`joinedSegmentsUrl`). Undefined when the segments cannot be joined
 * that way: the artwork is then made from the saved file.
 */
function segmentArtwork(span: BufferSpan): ArtworkSources | undefined {
  const files = span.segments.map((segment) => segment.file);
  const joined = joinedSegmentsUrl(files);
  if (!joined) return undefined;
  return {
    // The middle segment starts on a keyframe: its first frame needs one picture decoded.
    picture: { video: files[Math.floor(files.length / 2)]! },
    sound: { video: joined, audioStreams: 1, durationSeconds: span.durationSeconds },
  };
}
