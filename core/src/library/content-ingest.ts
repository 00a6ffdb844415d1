// How a finished video becomes a library item, the one way in for every producer (recorder, replay
// save, clip, highlight, compression, import, recovery): probe it, move it into place (never over
// another file), make its thumbnail and waveform, add the item, keep the bookmarks that came meanwhile.
// The artwork is made either before the item is added (its id is not known yet: it waits under a
// temporary name and is moved under the id right after) or, for a clip that should be listed the moment
// its file is whole, right after, with requests for it waiting until it is placed. Either way a frontend
// that sees the item finds its artwork; a failure of either is logged and the item is added anyway.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { injectable } from 'tsyringe';
import type { FfmpegTools } from '../media/ffmpeg-toolbox.js';
import { moveFile } from '../media/move-file.js';
import { probeMedia, type ProbeResult } from '../media/probe.js';
import { createThumbnail, thumbnailPath } from '../media/thumbnail.js';
import { computeWaveform, waveformPath, writeWaveform, type WaveformPeaksFile } from '../media/waveform.js';
import { TYPE_FOLDERS, type ContentType } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { SettingsStore } from '../settings/settings-store.js';
import { ContentLibrary, type ContentBookmark, type ContentRecord, type NewContent } from './content-library.js';

/** A thumbnail and waveform made before their item exists. */
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

/** What the item records besides its file and type; the duration defaults to the probed one. */
export type IngestMeta = Omit<NewContent, 'type' | 'filePath' | 'durationSeconds'> & { durationSeconds?: number };

export interface IngestRequest {
  /** The finished video, where it is now. */
  file: string;
  type: ContentType;
  meta: IngestMeta;
  tools: FfmpegTools;
  /** Where in the content folder it belongs when it is elsewhere: moved there, or to a free ` (n)` variant. */
  moveTo?: string;
  /**
   * True when the file was made for this item (a job's output): it is removed when it does not become
   * one. False (the default) for a file that is the user's: it is left where it is.
   */
  ownsFile?: boolean;
  /**
   * The video as ffprobe read it, when the producer read it already; else it is probed here, unless the
   * producer gives both `meta.durationSeconds` and `artworkSources` (a clip it just cut knows both).
   */
  probed?: ProbeResult;
  /** What the probe must find (default a video stream); else the video is refused as unreadable. */
  expect?: 'video' | 'video or audio';
  /** Default: the video itself. */
  artworkSources?: ArtworkSources;
  /** Artwork made ahead of the video (a saved replay: from its segments while they are joined). */
  artwork?: Promise<Artwork>;
  /** Bookmarks still arriving (a recording that is being stopped): read again after the item is added. */
  liveBookmarks?: () => ContentBookmark[];
}

/** The item of an `addListedFirst`, and its artwork being made. */
export interface ListedItem {
  item: ContentRecord;
  /** Settles when the thumbnail and waveform are placed (or failed, logged). */
  artworkMade: Promise<void>;
}

/** The video could not be read as media: no item was added. */
export class UnreadableVideo extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file} cannot be read (${reason})`);
  }
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
export class ContentIngest {
  private readonly logger: Logger;
  /** Thumbnail and waveform files being made after their item was added, to when they are placed. */
  private readonly making = new Map<string, Promise<void>>();

  constructor(
    private readonly settings: SettingsStore,
    private readonly library: ContentLibrary,
    logger: Logger,
  ) {
    this.logger = logger.child('ingest');
  }

  /**
   * Probes, moves, makes the artwork, adds the item and resolves to it. Throws `UnreadableVideo` when the
   * probe fails (nothing added, nothing moved); on any failure a file it owns is removed.
   */
  async add(request: IngestRequest): Promise<ContentRecord> {
    const { artwork: early, tools } = request;
    const placed = await this.place(request).catch(async (error: unknown) => {
      if (early) await this.discardArtwork(await early);
      throw error;
    });
    const artwork = await (early ??
      this.prepareArtwork(request.artworkSources ?? artworkOf(placed.filePath, await this.probed(request)), tools));
    let item: ContentRecord;
    try {
      item = await this.library.add(this.withLiveBookmarks(placed, request));
    } catch (error) {
      await this.discardArtwork(artwork);
      await this.abandon(placed.filePath, request);
      throw error;
    }
    await this.placeArtwork(item, artwork);
    return this.keepLiveBookmarks(item, request);
  }

  /**
   * Like `add`, but the item is listed before its artwork is made (a clip: listed the moment its file
   * is whole); until the artwork is placed, `whenMade` of its files waits.
   */
  async addListedFirst(request: IngestRequest): Promise<ListedItem> {
    const placed = await this.place(request);
    const item = await this.library.add(this.withLiveBookmarks(placed, request)).catch(async (error: unknown) => {
      await this.abandon(placed.filePath, request);
      throw error;
    });
    const sources = request.artworkSources ?? artworkOf(placed.filePath, await this.probed(request));
    const { cacheFolder } = this.settings.current;
    const typeFolder = TYPE_FOLDERS[item.type];
    const files = [thumbnailPath(cacheFolder, typeFolder, item.id), waveformPath(cacheFolder, typeFolder, item.id)];
    const artworkMade = this.prepareArtwork(sources, request.tools).then(async (artwork) => {
      // Deleted meanwhile: its artwork would belong to nothing.
      if (this.library.get(item.id)) await this.placeArtwork(item, artwork);
      else await this.discardArtwork(artwork);
    });
    for (const file of files) this.making.set(file, artworkMade);
    void artworkMade.finally(() => files.forEach((file) => this.making.delete(file)));
    return { item: await this.keepLiveBookmarks(item, request), artworkMade };
  }

  /** Settles once the artwork file being made at `file` (if any) is in place or failed. */
  async whenMade(file: string): Promise<void> {
    await this.making.get(path.resolve(file))?.catch(() => undefined);
  }

  /** Probes `file` and checks it holds what `expect` asks for; throws `UnreadableVideo`. */
  async probe(file: string, tools: FfmpegTools, expect: IngestRequest['expect'] = 'video'): Promise<ProbeResult> {
    let probed: ProbeResult;
    try {
      probed = await probeMedia(tools.ffprobe.path, file);
    } catch (error) {
      throw new UnreadableVideo(file, reasonOf(error));
    }
    const kinds = expect === 'video' ? ['video'] : ['video', 'audio'];
    if (!probed.streams.some((stream) => kinds.includes(stream.type))) throw new UnreadableVideo(file, `it holds no ${expect}`);
    return probed;
  }

  /** Makes thumbnail and waveform; either may be missing (logged). The thumbnail waits under a temporary name for its item. */
  async prepareArtwork(sources: ArtworkSources, tools: FfmpegTools): Promise<Artwork> {
    const began = Date.now();
    const pending = thumbnailPath(this.settings.current.cacheFolder, 'pending', randomUUID());
    const { picture, sound } = sources;
    const [thumbnail, waveform] = await Promise.all([
      createThumbnail({ ffmpegPath: tools.ffmpeg.path, target: pending, ...picture }).then(
        () => pending,
        (error: unknown) => {
          this.logger.warn('no thumbnail', { video: picture.video, error: reasonOf(error) });
          return undefined;
        },
      ),
      computeWaveform({ ffmpegPath: tools.ffmpeg.path, ...sound }).catch((error: unknown) => {
        this.logger.warn('no waveform', { video: sound.video, error: reasonOf(error) });
        return undefined;
      }),
    ]);
    this.logger.debug('thumbnail and waveform made', { video: picture.video, tookMs: Date.now() - began });
    return { ...(thumbnail ? { pendingThumbnail: thumbnail } : {}), ...(waveform ? { waveform } : {}) };
  }

  /** Removes artwork that no item will have. */
  async discardArtwork(artwork: Artwork): Promise<void> {
    if (artwork.pendingThumbnail) await rm(artwork.pendingThumbnail, { force: true });
  }

  /** The probe (the producer's, or made now, once, when needed), then the move: the record to add. A file it owns goes on failure. */
  private async place(request: IngestRequest): Promise<NewContent> {
    try {
      const probeNeeded = request.meta.durationSeconds === undefined || request.artworkSources === undefined;
      const probed = probeNeeded ? await this.probed(request) : undefined;
      const filePath = request.moveTo === undefined ? request.file : await moveFile(request.file, request.moveTo);
      const durationSeconds = request.meta.durationSeconds ?? probed?.durationSeconds ?? 0;
      return { ...request.meta, type: request.type, filePath, durationSeconds };
    } catch (error) {
      await this.abandon(request.file, request);
      throw error;
    }
  }

  private async probed(request: IngestRequest): Promise<ProbeResult> {
    request.probed ??= await this.probe(request.file, request.tools, request.expect);
    return request.probed;
  }

  /** A file made for an item that will not be: removed. The user's own files stay where they are. */
  private async abandon(file: string, { ownsFile }: IngestRequest): Promise<void> {
    if (ownsFile) await rm(file, { force: true });
  }

  private withLiveBookmarks(content: NewContent, { liveBookmarks }: IngestRequest): NewContent {
    return liveBookmarks ? { ...content, bookmarks: liveBookmarks() } : content;
  }

  /** Bookmarks that arrived while the item was being added. */
  private async keepLiveBookmarks(item: ContentRecord, { liveBookmarks }: IngestRequest): Promise<ContentRecord> {
    let kept = item;
    while (liveBookmarks && liveBookmarks().length > kept.bookmarks.length)
      kept = await this.library.update(item.id, { bookmarks: liveBookmarks() });
    return kept;
  }

  /** Moves the artwork under the item's id. */
  private async placeArtwork(item: ContentRecord, artwork: Artwork): Promise<void> {
    const cacheFolder = this.settings.current.cacheFolder;
    const typeFolder = TYPE_FOLDERS[item.type];
    await Promise.all([
      artwork.pendingThumbnail &&
        movePending(artwork.pendingThumbnail, thumbnailPath(cacheFolder, typeFolder, item.id)).catch((error: unknown) =>
          this.logger.warn('thumbnail not placed', { id: item.id, error }),
        ),
      artwork.waveform &&
        writeWaveform(waveformPath(cacheFolder, typeFolder, item.id), artwork.waveform).catch((error: unknown) =>
          this.logger.warn('waveform not written', { id: item.id, error }),
        ),
    ]);
  }
}

/** The thumbnail made for this item replaces the one of an earlier item at the same path (the library re-uses its id). */
async function movePending(file: string, target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  await rename(file, target);
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
