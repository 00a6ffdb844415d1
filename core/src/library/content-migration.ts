// MigrateContent: moves library videos kept outside the canonical layout
// (`<contentFolder>/<TypeFolder>/<game folder>/<file>`) into it — after a content folder change, an
// old version's layout, or files moved by hand. Each video is moved (a rename, or copy + delete across
// drives, never over an existing file) and its sidecar updated; thumbnails and waveforms are keyed by
// the item's id and stay valid. One run at a time: a second request while one runs is ignored.
import { randomUUID } from 'node:crypto';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { moveFile } from '../media/move-file.js';
import type { EventContent } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { samePath } from '../support/paths.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { ContentLibrary, type ContentRecord } from './content-library.js';
import { RecorderService } from '../recording/recorder-service.js';

export interface MigrationOutcome {
  moved: number;
  failed: number;
  /** False when the request was ignored because a run was already going. */
  ran: boolean;
}

@injectable()
export class ContentMigration {
  private running = false;
  private readonly logger: Logger;

  constructor(
    private readonly library: ContentLibrary,
    private readonly recorder: RecorderService,
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('content-migration');
  }

  /** The items whose video is not where `contentPath` would put it (the active recording's excepted). */
  misplaced(): ContentRecord[] {
    return this.library.list().filter((item) => {
      if (this.recorder.current?.isWriting(item.filePath)) return false;
      return !samePath(path.dirname(this.canonicalPath(item)), path.dirname(item.filePath));
    });
  }

  async migrate(): Promise<MigrationOutcome> {
    if (this.running) {
      this.logger.info('MigrateContent ignored: a migration is already running');
      return { moved: 0, failed: 0, ran: false };
    }
    this.running = true;
    const id = randomUUID().replaceAll('-', '');
    const report = (content: Omit<EventContent<'ContentMigrationProgress'>, 'id'>) =>
      this.events.send('ContentMigrationProgress', { id, ...content });
    try {
      const items = this.misplaced();
      const totalFiles = items.length;
      if (totalFiles === 0) {
        report({ fileName: '', progress: 100, status: 'done', totalFiles: 0, currentFileIndex: 0, message: 'Nothing to move.' });
        return { moved: 0, failed: 0, ran: true };
      }
      let moved = 0;
      const failures: string[] = [];
      for (const [index, item] of items.entries()) {
        const fileName = item.title || item.fileName;
        report({
          fileName,
          progress: Math.floor((index / totalFiles) * 100),
          status: 'migrating',
          totalFiles,
          currentFileIndex: index + 1,
        });
        try {
          await this.move(item);
          moved++;
        } catch (error) {
          this.logger.warn('content not moved', { id: item.id, file: item.filePath, error });
          failures.push(`${fileName}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      const summary = `Moved ${moved} ${moved === 1 ? 'video' : 'videos'} to your content folder.`;
      if (failures.length > 0) {
        report({
          fileName: '',
          progress: -1,
          status: 'error',
          totalFiles,
          currentFileIndex: totalFiles,
          message: `${summary} ${failures.length} could not be moved: ${failures.join('; ')}`,
        });
      } else {
        report({ fileName: '', progress: 100, status: 'done', totalFiles, currentFileIndex: totalFiles, message: summary });
      }
      this.logger.info('content migrated', { moved, failed: failures.length });
      return { moved, failed: failures.length, ran: true };
    } catch (error) {
      this.logger.warn('content migration failed', { error });
      report({
        fileName: '',
        progress: -1,
        status: 'error',
        totalFiles: 0,
        currentFileIndex: 0,
        message: `Error: ${error instanceof Error ? error.message : String(error)}`,
      });
      return { moved: 0, failed: 0, ran: true };
    } finally {
      this.running = false;
    }
  }

  private canonicalPath(item: ContentRecord): string {
    return this.library.contentPath(item.type, item.game, path.basename(item.filePath));
  }

  /** Moves the video, then rewrites the sidecar; a sidecar that cannot be written moves the video back. */
  private async move(item: ContentRecord): Promise<void> {
    const source = path.resolve(item.filePath);
    const destination = await moveFile(source, this.canonicalPath(item));
    try {
      await this.library.update(item.id, { filePath: destination });
    } catch (error) {
      await rename(destination, source).catch((undo: unknown) =>
        this.logger.error('moved video could not be put back', { source, destination, error: undo }),
      );
      throw error;
    }
    this.logger.info('content moved', { id: item.id, from: source, to: destination });
  }
}
