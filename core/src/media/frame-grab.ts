// One frame of a video as a small JPEG in memory, for the clip editor's segment thumbnails.
import { execFile } from 'node:child_process';
import { fileInput } from './file-input.js';

const FRAME_TIMEOUT_MS = 15_000;

/** The frame at `seconds`, `width` px wide; undefined when ffmpeg fails or writes nothing (past the end). */
export function runFfmpegFrame(ffmpegPath: string, video: string, seconds: number, width: number): Promise<Buffer | undefined> {
  const args = [
    '-v',
    'error',
    '-threads',
    '1',
    '-ss',
    seconds.toFixed(3),
    ...fileInput(video),
    '-map',
    '0:v:0',
    '-frames:v',
    '1',
    '-vf',
    `scale=${width}:-2,format=yuvj420p`,
    '-c:v',
    'mjpeg',
    '-q:v',
    '5',
    '-f',
    'image2pipe',
    'pipe:1',
  ];
  return new Promise((resolve) => {
    execFile(
      ffmpegPath,
      args,
      { encoding: 'buffer', maxBuffer: 8 * 1024 * 1024, timeout: FRAME_TIMEOUT_MS, windowsHide: true },
      (error, stdout) => resolve(error || stdout.length === 0 ? undefined : stdout),
    );
  });
}
