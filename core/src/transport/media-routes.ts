// Library media over HTTP for the frontend's player (protocol-gaps §10): videos with byte ranges,
// waveform JSON, stored thumbnails and single frames. Only files inside the content folder, or the
// cache folder's thumbnails and waveforms, are served; any other path is 404. Artwork is also found at
// the paths the reference frontend builds from an item's fileName (artwork-by-file-name.ts). Pages of
// other origins are refused (403); allowed ones get CORS headers, their origin echoed. Frames are read
// a few at a time and kept for the next ask; past the decoder pool's queue the answer is 503 with Retry-After.
import { open, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { injectable } from 'tsyringe';
import { runFfmpegFrame } from '../media/frame-grab.js';
import { FfmpegToolbox } from '../media/ffmpeg-toolbox.js';
import { DecoderPool, DecoderPoolFull } from '../media/decoder-pool.js';
import { FrameCache } from '../media/frame-cache.js';
import { ContentIngest } from '../library/content-ingest.js';
import { ContentLocator } from '../library/content-locator.js';
import { ARTWORK_FOLDERS, MEDIA_QUERY, MEDIA_ROUTES, type ArtworkKind } from '../protocol/wire-format.js';
import { isWithin } from '../support/paths.js';
import { SettingsStore } from '../settings/settings-store.js';
import { Logger } from '../support/logger.js';
import { artworkByFileName, type ItemByFileName } from './artwork-by-file-name.js';
import { crossSiteRefusal } from './cross-site-refusal.js';
import type { HttpHandler, HttpRoutes } from './http-routes.js';
import { HttpServer } from './http-server.js';
import { OriginPolicy } from './origin-policy.js';

const VIDEO_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.mkv': 'video/x-matroska',
  '.webm': 'video/webm',
};
/** The frame `/api/thumbnail?time=` returns is this wide. */
export const FRAME_WIDTH = 320;
/** Frames are read at tenths of a second: asks a few milliseconds apart share one. */
const FRAME_STEPS_PER_SECOND = 10;
/** About a thousand 320 px frames. */
const FRAME_CACHE_BYTES = 16 * 1024 * 1024;
/** Seconds a refused frame request is asked to wait. */
const RETRY_AFTER_SECONDS = 1;
/** Seconds a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;
const ALLOWED_METHODS = 'GET, HEAD';

/** A parsed `Range` header: the bytes to send, `'unsatisfiable'` (416), or undefined for the whole file. */
export type RangeAnswer = { start: number; end: number } | 'unsatisfiable' | undefined;

/** One `bytes=` range (`a-b`, `a-`, `-n`) against a file of `size` bytes; several ranges are not offered. */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return 'unsatisfiable';
  const [, first, last] = match;
  if (first === '' && last === '') return 'unsatisfiable';
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

type Kind = 'video' | ArtworkKind;

@injectable()
export class MediaRoutes {
  private readonly logger: Logger;
  private readonly decoders = new DecoderPool();
  private readonly frames = new FrameCache(FRAME_CACHE_BYTES);

  constructor(
    private readonly settings: SettingsStore,
    private readonly toolbox: FfmpegToolbox,
    private readonly artwork: ContentIngest,
    private readonly locator: ContentLocator,
    private readonly origins: OriginPolicy,
    private readonly mainServer: HttpServer,
    logger: Logger,
  ) {
    this.logger = logger.child('media');
  }

  /** Adds the media routes to `routes`: the main port's, or another listener's (one set of handlers, one frame cache). */
  install(routes: HttpRoutes): void {
    routes.add(
      MEDIA_ROUTES.content,
      this.guarded((request, response, url) => this.content(request, response, url)),
    );
    routes.add(
      MEDIA_ROUTES.thumbnail,
      this.guarded((request, response, url) => this.thumbnail(request, response, url)),
    );
  }

  /**
   * The handler, for requests that do not come from a page of another origin (403 for those). The service's own
   * pages are those of the main port, whichever port the request came to. An allowed page's origin is echoed, so
   * that its `fetch` may read the answer (and `Content-Range`); its preflight is answered here.
   */
  private guarded(handler: HttpHandler): HttpHandler {
    return (request, response, url) => {
      const refusal = crossSiteRefusal(request, (origin) => this.origins.allows(origin, this.mainServer.port));
      if (refusal !== undefined) {
        // Debug, not warn: a hostile page could ask thousands of times.
        this.logger.debug('cross-site media request refused', { path: url.pathname, why: refusal });
        return plain(response, 403, "Forbidden: media is only served to Keyframe's own pages.");
      }
      allowOrigin(request, response);
      if (request.method === 'OPTIONS') return answerPreflight(response);
      return handler(request, response, url);
    };
  }

  private async content(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    if (!allowMethod(request, response)) return;
    const input = url.searchParams.get(MEDIA_QUERY.input) ?? '';
    const extension = path.extname(input).toLowerCase();
    const kind: Kind | undefined = extension === '.json' ? 'waveform' : VIDEO_TYPES[extension] ? 'video' : undefined;
    if (!kind) return void plain(response, 400, 'Unsupported file type.');
    const file = await this.allowed(input, kind);
    if (!file) return void plain(response, 404, 'File not found.');
    if (kind === 'waveform') {
      return send(request, response, file.path, 200, {
        'Content-Type': 'application/json',
        'Content-Length': String(file.size),
        'Cache-Control': 'no-cache',
      });
    }
    const common = {
      'Content-Type': VIDEO_TYPES[extension]!,
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'no-cache',
    };
    const range = parseRange(request.headers.range, file.size);
    if (range === 'unsatisfiable') {
      response.writeHead(416, { ...common, 'Content-Range': `bytes */${file.size}`, 'Content-Length': '0' }).end();
      return;
    }
    if (!range) return send(request, response, file.path, 200, { ...common, 'Content-Length': String(file.size) });
    await send(
      request,
      response,
      file.path,
      206,
      {
        ...common,
        'Content-Range': `bytes ${range.start}-${range.end}/${file.size}`,
        'Content-Length': String(range.end - range.start + 1),
      },
      range,
    );
  }

  private async thumbnail(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    if (!allowMethod(request, response)) return;
    const input = url.searchParams.get(MEDIA_QUERY.input) ?? '';
    const time = url.searchParams.get(MEDIA_QUERY.time);
    if (time === null) {
      if (!/\.jpe?g$/i.test(input)) return void plain(response, 400, 'Unsupported file type.');
      const file = await this.allowed(input, 'thumbnail');
      if (!file) return void plain(response, 404, 'File not found.');
      return send(request, response, file.path, 200, {
        'Content-Type': 'image/jpeg',
        'Content-Length': String(file.size),
        'Cache-Control': 'public, max-age=86400',
        Expires: new Date(Date.now() + 7 * 86400_000).toUTCString(),
        'Last-Modified': file.modified.toUTCString(),
      });
    }
    const seconds = Number(time);
    if (time.trim() === '' || !Number.isFinite(seconds) || seconds < 0)
      return void plain(response, 400, 'time must be a number of seconds.');
    const video = await this.allowed(input, 'video');
    if (!video) return void plain(response, 404, 'File not found.');
    let ffmpeg: string;
    try {
      ffmpeg = this.toolbox.requireFfmpeg('Showing a frame of the video').ffmpeg.path;
    } catch (error) {
      return void plain(response, 500, `No frame: ${(error as Error).message}`);
    }
    const at = Math.round(seconds * FRAME_STEPS_PER_SECOND) / FRAME_STEPS_PER_SECOND;
    // Size and modification time: a file rewritten under the same name is read again.
    const key = [video.path, video.size, video.modified.getTime(), at].join('\0');
    let jpeg: Buffer | undefined;
    try {
      jpeg = await this.frames.get(key, () =>
        this.decoders.run(async () => {
          const began = Date.now();
          const frame = await runFfmpegFrame(ffmpeg, video.path, at, FRAME_WIDTH);
          this.logger.debug('frame read', { file: video.path, seconds: at, tookMs: Date.now() - began });
          return frame;
        }),
      );
    } catch (error) {
      if (!(error instanceof DecoderPoolFull)) throw error;
      response
        .writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': String(RETRY_AFTER_SECONDS) })
        .end(error.message);
      return;
    }
    if (!jpeg) {
      this.logger.warn('no frame for a thumbnail request', { file: video.path, seconds: at });
      return void plain(response, 500, 'No frame could be read at that time.');
    }
    response.writeHead(200, {
      'Content-Type': 'image/jpeg',
      'Content-Length': String(jpeg.length),
      'Cache-Control': 'no-cache, no-store, must-revalidate',
    });
    response.end(request.method === 'HEAD' ? undefined : jpeg);
  }

  /**
   * The real file behind `input` when it is a regular file the library serves, symbolic links followed. An artwork
   * path that names an item by its fileName is that item's artwork; a file at the exact path wins.
   */
  private async allowed(input: string, kind: Kind): Promise<ServedFile | undefined> {
    if (input === '' || input.includes('\0') || !path.isAbsolute(input)) return undefined;
    const { contentFolder, cacheFolder } = this.settings.current;
    const lexical = path.resolve(input);
    if (kind === 'video') return servedFile(contentFolder, lexical);
    const root = path.join(cacheFolder, ARTWORK_FOLDERS[kind]);
    const named = artworkByFileName(lexical, kind, cacheFolder, this.itemNamed);
    // The artwork of an item listed a moment ago may still be being made: wait for it, not a 404.
    await Promise.all([lexical, ...(named ? [named] : [])].map((file) => this.artwork.whenMade(file)));
    return (await servedFile(root, lexical)) ?? (named === undefined ? undefined : servedFile(root, named));
  }

  private readonly itemNamed: ItemByFileName = (type, fileName) => {
    try {
      return this.locator.byFileName(fileName, type);
    } catch {
      return undefined; // no such item: the path names nothing
    }
  };
}

interface ServedFile {
  path: string;
  size: number;
  modified: Date;
}

/** `file` when it is a regular file inside `root`, both with symbolic links followed. */
async function servedFile(root: string, file: string): Promise<ServedFile | undefined> {
  const realRoot = await realpath(root).catch(() => undefined);
  if (!realRoot || !(isWithin(root, file) || isWithin(realRoot, file))) return undefined;
  const real = await realpath(file).catch(() => undefined);
  if (!real || !isWithin(realRoot, real)) return undefined;
  const info = await stat(real).catch(() => undefined);
  return info?.isFile() ? { path: real, size: info.size, modified: info.mtime } : undefined;
}

/** CORS for a request the origin policy let through: its origin echoed (never `*`), and the headers a `fetch` may read. */
function allowOrigin(request: IncomingMessage, response: ServerResponse): void {
  response.setHeader('Vary', 'Origin');
  if (request.headers.origin === undefined) return;
  response.setHeader('Access-Control-Allow-Origin', request.headers.origin);
  response.setHeader('Access-Control-Expose-Headers', 'Content-Range, Accept-Ranges, Content-Length');
}

/** A page's preflight: its `fetch` may GET or HEAD with a `Range`. */
function answerPreflight(response: ServerResponse): void {
  response
    .writeHead(204, {
      'Access-Control-Allow-Methods': ALLOWED_METHODS,
      'Access-Control-Allow-Headers': 'Range',
      'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
      Allow: ALLOWED_METHODS,
    })
    .end();
}

function allowMethod(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return true;
  response.writeHead(405, { Allow: ALLOWED_METHODS }).end();
  return false;
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(text);
}

/**
 * Streams the file (or a byte range of it); the body is never held in memory. The file is opened before the
 * answer starts: one renamed or deleted since it was found is a 404, not a connection closed without an answer.
 */
async function send(
  request: IncomingMessage,
  response: ServerResponse,
  file: string,
  status: number,
  headers: Record<string, string>,
  range?: { start: number; end: number },
): Promise<void> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return plain(response, 404, 'File not found.');
  response.writeHead(status, { 'X-Content-Type-Options': 'nosniff', ...headers });
  if (request.method === 'HEAD') {
    await handle.close();
    response.end();
    return;
  }
  const stream = handle.createReadStream(range);
  stream.on('error', () => response.destroy());
  response.on('close', () => stream.destroy());
  stream.pipe(response);
}
