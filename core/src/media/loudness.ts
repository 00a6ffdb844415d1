// How loud a video is, half a second at a time: the RMS level of its first audio track (the full
// mix) from ffmpeg's `astats`, reset every 0.5 s. Used to find a session's loudest moments when it
// has no bookmarks.
import { execFile } from 'node:child_process';
import type { LoudnessSample } from './highlight-plan.js';
import { fileInput } from './file-input.js';

const ANALYSIS_RATE = 8000;
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/** Readings of `sampleSeconds` each, in time order; empty for a video without sound. */
export async function measureLoudness(
  ffmpegPath: string,
  video: string,
  sampleSeconds = 0.5,
  signal?: AbortSignal,
): Promise<LoudnessSample[]> {
  const samples = Math.max(1, Math.round(ANALYSIS_RATE * sampleSeconds));
  const filter = [
    `aresample=${ANALYSIS_RATE}`,
    'aformat=channel_layouts=mono',
    `asetnsamples=n=${samples}:p=0`,
    'astats=metadata=1:reset=1',
    'ametadata=mode=print:key=lavfi.astats.Overall.RMS_level:file=-',
  ].join(',');
  const args = ['-hide_banner', '-nostdin', '-v', 'error', ...fileInput(video), '-map', '0:a:0?', '-vn', '-af', filter, '-f', 'null', '-'];
  const output = await new Promise<string>((resolve, reject) => {
    execFile(ffmpegPath, args, { maxBuffer: MAX_OUTPUT_BYTES, windowsHide: true, signal }, (error, stdout, stderr) => {
      if (error) reject(new Error(stderr.trim() || error.message));
      else resolve(stdout);
    });
  });
  return parseLoudness(output);
}

/** Parses `ametadata` print output: a `pts_time:` line, then the level (`-inf` for silence). */
export function parseLoudness(output: string): LoudnessSample[] {
  const result: LoudnessSample[] = [];
  let time: number | undefined;
  for (const line of output.split(/\r?\n/)) {
    const frame = /pts_time:(\S+)/.exec(line);
    if (frame) {
      time = Number(frame[1]);
      continue;
    }
    const level = /RMS_level=(\S+)/.exec(line);
    if (level && time !== undefined && Number.isFinite(time)) {
      const value = level[1] === '-inf' ? Number.NEGATIVE_INFINITY : Number(level[1]);
      result.push({ time, level: Number.isNaN(value) ? Number.NEGATIVE_INFINITY : value });
      time = undefined;
    }
  }
  return result;
}
