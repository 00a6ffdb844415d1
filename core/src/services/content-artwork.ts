// Adds a video to the library with its thumbnail and waveform peaks in place. Both are made before
// the item exists (its id is not known yet) and moved under the id right after it is added, so a
// frontend that sees the item finds them. A failure of either is logged; the item is added anyway.
import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { injectable } from 'tsyringe';
import type { EngineTools } from '../media/capture-engine.js';
import type { ProbeResult } from '../media/probe.js';
import { createThumbnail, thumbnailPath } from '../media/thumbnail.js';
import { computeWaveform, waveformPath, writeWaveform, type WaveformPeaksFile } from '../media/waveform.js';
import { Logger } from '../support/logger.js';
import { ContentLibrary, TYPE_FOLDERS, type ContentRecord, type NewContent } from './content-library.js';
import { SettingsStore } from './settings-store.js';

interface Artwork {
  pendingThumbnail?: string;
  waveform?: WaveformPeaksFile;
}

@injectable()
export class ContentArtwork {
  private readonly logger: Logger;

  constructor(private readonly settings: SettingsStore, private readonly library: ContentLibrary, logger: Logger) {
    this.logger = logger.child('artwork');
  }

  /** `probed` is the video as ffprobe read it (duration, audio streams). */
  async addWithArtwork(content: NewContent, probed: ProbeResult, tools: EngineTools): Promise<ContentRecord> {
    const cacheFolder = this.settings.current.cacheFolder;
    const typeFolder = TYPE_FOLDERS[content.type];
    const artwork = await this.make(content.filePath, probed, tools, thumbnailPath(cacheFolder, typeFolder, `.pending-${randomUUID()}`));
    let item: ContentRecord;
    try {
      item = await this.library.add(content);
    } catch (error) {
      if (artwork.pendingThumbnail) await rm(artwork.pendingThumbnail, { force: true });
      throw error;
    }
    await Promise.all([
      artwork.pendingThumbnail && rename(artwork.pendingThumbnail, thumbnailPath(cacheFolder, typeFolder, item.id))
        .catch((error: unknown) => this.logger.warn('thumbnail not placed', { id: item.id, error })),
      artwork.waveform && writeWaveform(waveformPath(cacheFolder, typeFolder, item.id), artwork.waveform)
        .catch((error: unknown) => this.logger.warn('waveform not written', { id: item.id, error })),
    ]);
    return item;
  }

  private async make(video: string, probed: ProbeResult, tools: EngineTools, pendingThumbnail: string): Promise<Artwork> {
    const began = Date.now();
    const durationSeconds = probed.durationSeconds ? { durationSeconds: probed.durationSeconds } : {};
    const [thumbnail, waveform] = await Promise.all([
      createThumbnail({ ffmpegPath: tools.ffmpeg.path, video, target: pendingThumbnail, ...durationSeconds })
        .then(() => pendingThumbnail, (error: unknown) => {
          this.logger.warn('no thumbnail', { video, error: (error as Error).message });
          return undefined;
        }),
      computeWaveform({
        ffmpegPath: tools.ffmpeg.path, video, audioStreams: probed.streams.filter((stream) => stream.type === 'audio').length, ...durationSeconds,
      }).catch((error: unknown) => {
        this.logger.warn('no waveform', { video, error: (error as Error).message });
        return undefined;
      }),
    ]);
    this.logger.debug('thumbnail and waveform made', { video, tookMs: Date.now() - began });
    return { ...(thumbnail ? { pendingThumbnail: thumbnail } : {}), ...(waveform ? { waveform } : {}) };
  }
}
