// Adds a video to the library with its thumbnail and waveform peaks. Either both are made before the
// item exists (its id is not known yet) and moved under the id right after it is added, or (clips,
// which should be listed the moment their file is whole) made right after it is added, with requests
// for them waiting until they are placed: either way a frontend that sees the item finds them. A
// failure of either is logged; the item is added anyway. They can also be made from other sources
// while the video itself is still being written (a saved replay: from its segments while they are joined).
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { injectable } from 'tsyringe';
import type { FfmpegTools } from '../media/ffmpeg-toolbox.js';
import type { ProbeResult } from '../media/probe.js';
import { createThumbnail, thumbnailPath } from '../media/thumbnail.js';
import { computeWaveform, waveformPath, writeWaveform, type WaveformPeaksFile } from '../media/waveform.js';
import { Logger } from '../support/logger.js';
import { TYPE_FOLDERS } from '../protocol/index.js';
import { ContentLibrary, type ContentRecord, type NewContent } from './content-library.js';
import { MediaJobs } from '../jobs/media-jobs.js';
import { SettingsStore } from '../settings/settings-store.js';

/** A thumbnail and waveform made before the item exists. */
export interface Artwork {
  pendingThumbnail?: string;
  waveform?: WaveformPeaksFile;
}

/** Where the artwork of a video comes from. */
export interface ArtworkSources {
  /** A file holding the thumbnail's frame at its middle: the video, or the part of it around its middle. */
  picture: { video: string; durationSeconds?: number };
  /** What the sound is decoded from: the video, or an ffmpeg input that reads the same sound. */
  sound: { video: string; audioStreams: number; durationSeconds?: number };
}

/** The artwork of a video from the video itself. */
export function artworkOf(video: string, probed: ProbeResult): ArtworkSources {
  const durationSeconds = probed.durationSeconds ? { durationSeconds: probed.durationSeconds } : {};
  return {
    picture: { video, ...durationSeconds },
    sound: { video, audioStreams: probed.streams.filter((stream) => stream.type === 'audio').length, ...durationSeconds },
  };
}

@injectable()
export class ContentArtwork {
  private readonly logger: Logger;
  /** Thumbnail and waveform files being made after their item was added, to when they are placed. */
  private readonly making = new Map<string, Promise<void>>();

  constructor(private readonly settings: SettingsStore, private readonly library: ContentLibrary, private readonly jobs: MediaJobs, logger: Logger) {
    this.logger = logger.child('artwork');
  }

  /** Adds the item at once, then makes its artwork; until that is placed, `whenMade` of its files waits. */
  async addThenMake(content: NewContent, sources: ArtworkSources, tools: FfmpegTools): Promise<ContentRecord> {
    const item = await this.library.add(content);
    const { cacheFolder } = this.settings.current;
    const typeFolder = TYPE_FOLDERS[content.type];
    const files = [thumbnailPath(cacheFolder, typeFolder, item.id), waveformPath(cacheFolder, typeFolder, item.id)];
    const made = this.jobs.track(this.prepare(sources, tools).then(async (artwork) => {
      // Deleted meanwhile: its artwork would belong to nothing.
      if (this.library.get(item.id)) await this.place(item, artwork);
      else await this.discard(artwork);
    }));
    for (const file of files) this.making.set(file, made);
    void made.finally(() => files.forEach((file) => this.making.delete(file)));
    return item;
  }

  /** Settles once the artwork file being made at `file` (if any) is in place or failed. */
  async whenMade(file: string): Promise<void> {
    await this.making.get(path.resolve(file))?.catch(() => undefined);
  }

  /** `probed` is the video as ffprobe read it (duration, audio streams). */
  async addWithArtwork(content: NewContent, probed: ProbeResult, tools: FfmpegTools): Promise<ContentRecord> {
    return this.add(content, await this.prepare(artworkOf(content.filePath, probed), tools));
  }

  /** Makes thumbnail and waveform; either may be missing (logged). The thumbnail waits under a temporary name for `add`. */
  async prepare(sources: ArtworkSources, tools: FfmpegTools): Promise<Artwork> {
    const began = Date.now();
    const pending = thumbnailPath(this.settings.current.cacheFolder, 'pending', randomUUID());
    const { picture, sound } = sources;
    const [thumbnail, waveform] = await Promise.all([
      createThumbnail({ ffmpegPath: tools.ffmpeg.path, target: pending, ...picture }).then(() => pending, (error: unknown) => {
        this.logger.warn('no thumbnail', { video: picture.video, error: (error as Error).message });
        return undefined;
      }),
      computeWaveform({ ffmpegPath: tools.ffmpeg.path, ...sound }).catch((error: unknown) => {
        this.logger.warn('no waveform', { video: sound.video, error: (error as Error).message });
        return undefined;
      }),
    ]);
    this.logger.debug('thumbnail and waveform made', { video: picture.video, tookMs: Date.now() - began });
    return { ...(thumbnail ? { pendingThumbnail: thumbnail } : {}), ...(waveform ? { waveform } : {}) };
  }

  /** Adds the item, then places its artwork under its id. */
  async add(content: NewContent, artwork: Artwork): Promise<ContentRecord> {
    let item: ContentRecord;
    try {
      item = await this.library.add(content);
    } catch (error) {
      await this.discard(artwork);
      throw error;
    }
    await this.place(item, artwork);
    return item;
  }

  /** Moves the artwork under the item's id. */
  private async place(item: ContentRecord, artwork: Artwork): Promise<void> {
    const cacheFolder = this.settings.current.cacheFolder;
    const typeFolder = TYPE_FOLDERS[item.type];
    await Promise.all([
      artwork.pendingThumbnail && place(artwork.pendingThumbnail, thumbnailPath(cacheFolder, typeFolder, item.id))
        .catch((error: unknown) => this.logger.warn('thumbnail not placed', { id: item.id, error })),
      artwork.waveform && writeWaveform(waveformPath(cacheFolder, typeFolder, item.id), artwork.waveform)
        .catch((error: unknown) => this.logger.warn('waveform not written', { id: item.id, error })),
    ]);
  }

  /** Removes artwork that no item will have. */
  async discard(artwork: Artwork): Promise<void> {
    if (artwork.pendingThumbnail) await rm(artwork.pendingThumbnail, { force: true });
  }
}

async function place(file: string, target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  await rename(file, target);
}
