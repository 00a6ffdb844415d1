// The encode of a recording and the outputs it feeds: picture size from the settings, the chosen
// video encoder with a keyframe every second and AAC, encoded once; the session file (fragmented MP4,
// a fragment at least every second, playable if the process dies mid-write), the replay-buffer
// segments, the preview's low-rate JPEG frames and the raw frames of on-screen text recognition all
// come from that one ffmpeg run.
import type { Codec, Settings } from '../protocol/index.js';
import type { CapturePlan } from './capture-plan.js';
import type { CaptureFormat, CaptureInputs } from './capture-source.js';
import { videoEncoderArgs, type VideoEncoderSettings } from './video-encoder.js';

type Resolution = Settings['resolution'];

const RESOLUTION_HEIGHTS: Record<Resolution, number> = { '720p': 720, '1080p': 1080, '1440p': 1440, '4K': 2160 };

/** 16:9 at the setting's height, no taller than the largest display; width a multiple of 4. */
export function captureFormat(resolution: Resolution, frameRate: number, maxDisplayHeight: number): CaptureFormat {
  const limit = maxDisplayHeight > 0 ? maxDisplayHeight : RESOLUTION_HEIGHTS[resolution];
  const height = evenFloor(Math.min(RESOLUTION_HEIGHTS[resolution], limit));
  const width = Math.max(4, Math.round((height * 16) / 9 / 4) * 4);
  return { width, height, frameRate };
}

export interface BufferOutput {
  /** Segment file pattern with one `%d`-style field, e.g. `<folder>/segment-%06d.ts`. */
  pattern: string;
  /** Nominal length of a segment; cuts fall on keyframes, which come every second. */
  segmentSeconds: number;
}

export interface FramesOutput {
  /** File descriptor ffmpeg writes the MJPEG stream to (`pipe:<n>`). */
  pipe: number;
  width: number;
  height: number;
  frameRate: number;
  /** mjpeg `-q:v`, 2 (best) to 31. */
  quality?: number;
}

export interface ScreenFramesOutput {
  /** File descriptor ffmpeg writes the raw RGB frames to (`pipe:<n>`). */
  pipe: number;
  width: number;
  height: number;
  frameRate: number;
}

/** Which outputs one encode feeds; at least one of `sessionPath` and `buffer`. */
export interface RecordingOutputs {
  /** The whole recording as a fragmented MP4 (Session and Hybrid). */
  sessionPath?: string;
  /** Rolling MPEG-TS segments of the replay buffer (Buffer and Hybrid). */
  buffer?: BufferOutput;
  /** Frames of the recording for the preview: a separate small encode of the picture. */
  frames?: FramesOutput;
  /** Frames for on-screen text recognition: full detail, few per second, uncompressed. */
  screenFrames?: ScreenFramesOutput;
}

export interface RecordingEncoding {
  inputs: CaptureInputs;
  /** The video stream: encoder, rate control, output size and frame rate (`videoEncoderArgs`). */
  video: VideoEncoderSettings;
  /** The encoders this engine has (State `codecs`); the settings' codec when listed, else the best one (x264 when empty). */
  codecs?: readonly Codec[];
  outputs: RecordingOutputs;
  audioBitrateKbps?: number;
}

export const FRAGMENTED_MP4_FLAGS = '+frag_keyframe+empty_moov+default_base_moof';
/**
 * What a crash of the service and its ffmpeg may cost the session file: a fragment is written when
 * it is complete, and flushed at once, so the file on disk holds all but the last fragment and the
 * few frames in the encoder.
 */
const FRAGMENT_SECONDS = 1;
const SESSION_FILE_OPTIONS = { frag_duration: String(FRAGMENT_SECONDS * 1_000_000), flush_packets: '1' };
export const SEGMENT_FORMAT = 'mpegts';
export const SEGMENT_EXTENSION = '.ts';

/**
 * One encode, every output the recording mode needs. Session file and buffer segments take the same
 * encoded packets (the `tee` muxer when both are wanted); the frames output scales the captured
 * picture down and encodes it as MJPEG, which costs little at 480x270, 10 per second. Every audio
 * track of the source is kept, titled (track 0 the full mix).
 */
export function recordingEncodingArgs({ inputs, video, codecs = [], outputs, audioBitrateKbps = 128 }: RecordingEncoding): string[] {
  const { sessionPath, buffer, frames, screenFrames } = outputs;
  if (!sessionPath && !buffer) throw new Error('A recording needs a session file, a replay buffer, or both');
  const args = [
    // The capture's frames keep their capture times: an encode that falls behind drops frames rather
    // than duplicating them to fill the gaps, which would put it further behind the clock.
    '-vsync',
    'vfr',
    ...inputs.args,
    '-map',
    inputs.video,
    ...inputs.audioTracks.flatMap((track) => ['-map', track.map]),
    ...(inputs.plan
      ? plannedVideoArgs(inputs.plan, inputs.videoFilter)
      : videoEncoderArgs(video, codecs, {
          live: true,
          ...(inputs.videoFilter ? { sourceFilter: inputs.videoFilter } : {}),
          ...(inputs.flatPicture ? { flatPicture: true } : {}),
        })),
    '-c:a',
    'aac',
    '-b:a',
    `${audioBitrateKbps}k`,
    '-ar',
    '48000',
    '-ac',
    '2',
    ...audioTrackNameArgs(inputs.audioTracks.map((track) => track.name)),
  ];
  if (sessionPath && buffer) {
    // The tee muxer cannot tell the encoders that MP4 wants headers out of band; ask for them.
    args.push(
      '-flags',
      '+global_header',
      '-f',
      'tee',
      [
        teeSlave({ f: 'mp4', movflags: FRAGMENTED_MP4_FLAGS, ...SESSION_FILE_OPTIONS }, sessionPath),
        teeSlave(
          { f: 'segment', segment_time: String(buffer.segmentSeconds), segment_format: SEGMENT_FORMAT },
          segmentPattern(buffer.pattern),
        ),
      ].join('|'),
    );
  } else if (sessionPath) {
    args.push(
      '-movflags',
      FRAGMENTED_MP4_FLAGS,
      ...Object.entries(SESSION_FILE_OPTIONS).flatMap(([key, value]) => [`-${key}`, value]),
      '-f',
      'mp4',
      '-y',
      sessionPath,
    );
  } else {
    args.push(
      '-f',
      'segment',
      '-segment_time',
      String(buffer!.segmentSeconds),
      '-segment_format',
      SEGMENT_FORMAT,
      segmentPattern(buffer!.pattern),
    );
  }
  // Every output of the picture takes the source's filter: ffmpeg feeds first the output that is
  // furthest behind, so one left on other timestamps would starve the rest (the sound, then the file).
  const cpuFilter = filterChain([inputs.videoFilter, ...(inputs.plan?.cpuFilters ?? [])]);
  if (frames) args.push(...framesOutputArgs(inputs.video, frames, cpuFilter));
  if (screenFrames) args.push(...screenFramesOutputArgs(inputs.video, screenFrames, cpuFilter));
  return args;
}

/** The planned picture path: its filters (after the source's own) and its encoder's options. */
export function plannedVideoArgs(plan: Pick<CapturePlan, 'videoFilters' | 'encoderArgs'>, sourceFilter?: string): string[] {
  const filters = filterChain([sourceFilter, ...plan.videoFilters]);
  return [...(filters ? ['-vf', filters] : []), ...plan.encoderArgs];
}

const filterChain = (filters: readonly (string | undefined)[]) => filters.filter(Boolean).join(',') || undefined;

/**
 * Names the audio tracks: `title` for containers that have it, `handler_name` for MP4, where
 * players and editors read track names from the handler.
 */
export function audioTrackNameArgs(names: readonly string[]): string[] {
  return names.flatMap((name, index) => [`-metadata:s:a:${index}`, `title=${name}`, `-metadata:s:a:${index}`, `handler_name=${name}`]);
}

/** A second output of the same process: the captured picture, small and slow, as a stream of JPEGs. */
export function framesOutputArgs(
  video: string,
  { pipe, width, height, frameRate, quality = 7 }: FramesOutput,
  sourceFilter?: string,
): string[] {
  return [
    '-map',
    video,
    '-vf',
    withSourceFilter(sourceFilter, `${everyNth(frameRate)},scale=${width}:${height},setsar=1`),
    // The output's own rate: without it an output that takes ffmpeg's default frame-rate handling (no
    // global `-vsync vfr`) is made constant-rate at the source's rate, every frame sent again.
    '-r',
    String(frameRate),
    // Full-range 4:2:0 is what every ffmpeg's mjpeg encoder takes without `-strict`.
    '-pix_fmt',
    'yuvj420p',
    '-c:v',
    'mjpeg',
    '-q:v',
    String(quality),
    '-an',
    '-f',
    'mjpeg',
    `pipe:${pipe}`,
  ];
}

/**
 * A third output of the same process, for on-screen text recognition: raw RGB, so a reader cuts
 * its region out without decoding; at 5 frames a second a 1080p stream is ~31 MB/s over a pipe,
 * cheaper than encoding each frame as an image.
 */
export function screenFramesOutputArgs(
  video: string,
  { pipe, width, height, frameRate }: ScreenFramesOutput,
  sourceFilter?: string,
): string[] {
  return [
    '-map',
    video,
    '-vf',
    withSourceFilter(sourceFilter, `fps=${frameRate},scale=${width}:${height},setsar=1`),
    '-pix_fmt',
    'rgb24',
    '-an',
    '-f',
    'rawvideo',
    `pipe:${pipe}`,
  ];
}

/**
 * About `frameRate` frames a second, each passed on as it comes: the `fps` filter holds a frame until it
 * has seen the next ones (at start-up 100–150 ms inside ffmpeg, and the recording counts as started at
 * the first of these frames). The 10% margin absorbs the jitter of capture times.
 */
const everyNth = (frameRate: number) => `select='isnan(prev_selected_t)+gte(t-prev_selected_t,${(0.9 / frameRate).toFixed(3)})'`;

const withSourceFilter = (sourceFilter: string | undefined, filters: string) => (sourceFilter ? `${sourceFilter},${filters}` : filters);

/**
 * One `[options]file` entry of the tee muxer. The tee splits its argument on `|` and unescapes
 * backslashes and quotes, so those are escaped in the file name; option values are escaped for the
 * option parser too (`:` and `]` end a value).
 */
export function teeSlave(options: Readonly<Record<string, string>>, file: string): string {
  const values = Object.entries(options).map(([key, value]) => `${key}=${escapeTee(value.replace(/[\\':\]]/g, '\\$&'))}`);
  return `[${values.join(':')}]${escapeTee(file)}`;
}

const escapeTee = (text: string) => text.replace(/[\\'|[\]]/g, '\\$&');

/** `%` in folder names would be read as a pattern field by the segment muxer. */
function segmentPattern(pattern: string): string {
  const field = pattern.lastIndexOf('%');
  return `${pattern.slice(0, field).replaceAll('%', '%%')}${pattern.slice(field)}`;
}

const evenFloor = (value: number) => Math.max(2, Math.floor(value / 2) * 2);
