// The library card picture of a video: one frame from the middle, 720 px wide, as JPEG in
// `<cache>/thumbnails/<TypeFolder>/<id>.jpeg`.
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { artworkParts } from '../protocol/wire-format.js';
import type { Logger } from '../support/logger.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { fileInput } from './file-input.js';

export const THUMBNAIL_WIDTH = 720;

/** `<cacheFolder>/thumbnails/<typeFolder>/<id>.jpeg` */
export function thumbnailPath(cacheFolder: string, typeFolder: string, id: string): string {
  return path.join(cacheFolder, ...artworkParts('thumbnail', typeFolder, id));
}

export interface ThumbnailRequest {
  ffmpegPath: string;
  video: string;
  target: string;
  /** Length of the video; the frame is taken at half of it (at the start when unknown). */
  durationSeconds?: number;
  width?: number;
  logger?: Logger;
}

/** Writes the thumbnail; a video too short for its middle frame falls back to its first. */
export async function createThumbnail(request: ThumbnailRequest): Promise<void> {
  await mkdir(path.dirname(request.target), { recursive: true });
  const middle = request.durationSeconds && request.durationSeconds > 0 ? request.durationSeconds / 2 : 0;
  let problem = await extractFrame(request, middle);
  if (problem && middle > 0) problem = await extractFrame(request, 0);
  if (problem) {
    await rm(request.target, { force: true });
    throw new Error(`No thumbnail for ${request.video}: ${problem}`);
  }
}

/** Undefined when a non-empty JPEG was written, else what went wrong. */
async function extractFrame(
  { ffmpegPath, video, target, width = THUMBNAIL_WIDTH, logger }: ThumbnailRequest,
  atSeconds: number,
): Promise<string | undefined> {
  const run = FfmpegProcess.start({
    ffmpegPath,
    // -ss before -i seeks on the input: fast, and exact for a frame that only needs to be near.
    // One decoding thread: a frame or two to decode, often beside a recording or a join.
    args: [
      '-threads',
      '1',
      '-ss',
      atSeconds.toFixed(3),
      ...fileInput(video),
      '-map',
      '0:v:0',
      '-frames:v',
      '1',
      '-vf',
      `scale=${width}:-2`,
      '-q:v',
      '9',
      '-f',
      'image2',
      '-update',
      '1',
      '-y',
      target,
    ],
    outputs: [target],
    ...(logger ? { logger } : {}),
  });
  const exit = await run.exited;
  if (!exit.succeeded) return exit.errorText;
  const size = await stat(target).then(
    (file) => file.size,
    () => 0,
  );
  return size > 0 ? undefined : 'ffmpeg wrote no frame';
}
