// The encode of a recording: picture size from the settings, H.264 with a keyframe every second,
// AAC, into a fragmented MP4 that stays playable if the process dies mid-write.
import type { Settings } from '../protocol/index.js';
import type { CaptureFormat, CaptureInputs } from './capture-source.js';

type Resolution = Settings['resolution'];

const RESOLUTION_HEIGHTS: Record<Resolution, number> = { '720p': 720, '1080p': 1080, '1440p': 1440, '4K': 2160 };

/** 16:9 at the setting's height, no taller than the largest display; width a multiple of 4. */
export function captureFormat(resolution: Resolution, frameRate: number, maxDisplayHeight: number): CaptureFormat {
  const limit = maxDisplayHeight > 0 ? maxDisplayHeight : RESOLUTION_HEIGHTS[resolution];
  const height = evenFloor(Math.min(RESOLUTION_HEIGHTS[resolution], limit));
  const width = Math.max(4, Math.round((height * 16) / 9 / 4) * 4);
  return { width, height, frameRate };
}

export interface SessionEncoding {
  inputs: CaptureInputs;
  format: CaptureFormat;
  /** x264 constant rate factor, 0 (lossless) to 51. */
  crf: number;
  outputPath: string;
  audioBitrateKbps?: number;
}

export const FRAGMENTED_MP4_FLAGS = '+frag_keyframe+empty_moov+default_base_moof';

export function sessionEncodingArgs({ inputs, format, crf, outputPath, audioBitrateKbps = 128 }: SessionEncoding): string[] {
  const silence = inputs.audio === undefined;
  const inputCount = inputs.args.filter((arg) => arg === '-i').length;
  const keyframeInterval = String(Math.max(1, Math.round(format.frameRate)));
  return [
    ...inputs.args,
    ...(silence ? ['-f', 'lavfi', '-i', 'anullsrc=channel_layout=stereo:sample_rate=48000'] : []),
    '-map', inputs.video,
    '-map', silence ? `${inputCount}:a` : inputs.audio!,
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(crf),
    '-g', keyframeInterval, '-keyint_min', keyframeInterval, '-sc_threshold', '0',
    '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', `${audioBitrateKbps}k`, '-ar', '48000', '-ac', '2',
    ...(silence ? ['-shortest'] : []),
    '-metadata:s:a:0', 'title=Full Mix',
    '-movflags', FRAGMENTED_MP4_FLAGS,
    '-f', 'mp4', '-y', outputPath,
  ];
}

const evenFloor = (value: number) => Math.max(2, Math.floor(value / 2) * 2);
