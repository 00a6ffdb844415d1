// What a media file holds, read with `ffprobe -show_format -show_streams` (JSON), and where its
// keyframes are in a span of it when asked.
import { execFile } from 'node:child_process';
import { fileInput } from './file-input.js';

export interface ProbedStream {
  index: number;
  type: string;
  codec: string | undefined;
  width?: number;
  height?: number;
  /** Frames per second from `avg_frame_rate`. */
  frameRate?: number;
  sampleRate?: number;
  channels?: number;
  durationSeconds?: number;
  /** The track's name: the `title` tag, else an MP4 handler name that is not a muxer's default. */
  title?: string;
}

export interface ProbeResult {
  /** Of the container, else the longest stream; undefined when ffprobe knows none. */
  durationSeconds: number | undefined;
  formatName: string | undefined;
  sizeBytes: number | undefined;
  streams: ProbedStream[];
  /**
   * With `keyframesIn`: the first video stream's keyframe times inside that span, in seconds from
   * the video's start (the player's time), sorted.
   */
  keyframes?: number[];
}

export interface ProbeOptions {
  /** Also read the packets of this span (seconds) for `keyframes`: one ffprobe run instead of two. */
  keyframesIn?: { fromSeconds: number; toSeconds: number };
  timeoutMs?: number;
}

const PROBE_TIMEOUT_MS = 30_000;

/** Rejects with ffprobe's error text when the file cannot be read. */
export async function probeMedia(ffprobePath: string, file: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const { keyframesIn, timeoutMs = PROBE_TIMEOUT_MS } = options;
  const packets = keyframesIn
    ? [
        '-show_entries',
        'packet=stream_index,pts_time,flags',
        '-read_intervals',
        `${keyframesIn.fromSeconds.toFixed(3)}%${keyframesIn.toSeconds.toFixed(3)}`,
      ]
    : [];
  const output = await new Promise<string>((resolve, reject) => {
    execFile(
      ffprobePath,
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...packets, ...fileInput(file)],
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`ffprobe could not read ${file}: ${stderr.trim() || error.message}`));
        else resolve(stdout);
      },
    );
  });
  return parseProbeOutput(output);
}

interface RawProbe {
  format?: { duration?: string; format_name?: string; size?: string; start_time?: string };
  packets?: { stream_index?: number; pts_time?: string; flags?: string }[];
  streams?: {
    index?: number;
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    avg_frame_rate?: string;
    sample_rate?: string;
    channels?: number;
    duration?: string;
    tags?: { title?: string; handler_name?: string };
  }[];
}

/** What muxers write into an MP4 track's handler when nobody named it. */
const DEFAULT_HANDLER_NAMES = new Set(['VideoHandler', 'SoundHandler', 'SubtitleHandler', 'Core Media Video', 'Core Media Audio']);

export function parseProbeOutput(json: string): ProbeResult {
  const raw = JSON.parse(json) as RawProbe;
  const streams: ProbedStream[] = (raw.streams ?? []).map((stream, position) => {
    const probed: ProbedStream = { index: stream.index ?? position, type: stream.codec_type ?? 'unknown', codec: stream.codec_name };
    if (stream.width) probed.width = stream.width;
    if (stream.height) probed.height = stream.height;
    const frameRate = parseRate(stream.avg_frame_rate);
    if (frameRate !== undefined) probed.frameRate = frameRate;
    const sampleRate = positive(stream.sample_rate);
    if (sampleRate !== undefined) probed.sampleRate = sampleRate;
    if (stream.channels) probed.channels = stream.channels;
    const duration = positive(stream.duration);
    if (duration !== undefined) probed.durationSeconds = duration;
    const title = stream.tags?.title ?? stream.tags?.handler_name;
    if (title && !DEFAULT_HANDLER_NAMES.has(title)) probed.title = title;
    return probed;
  });
  const longestStream = Math.max(0, ...streams.map((stream) => stream.durationSeconds ?? 0));
  return {
    durationSeconds: positive(raw.format?.duration) ?? (longestStream > 0 ? longestStream : undefined),
    formatName: raw.format?.format_name,
    sizeBytes: positive(raw.format?.size),
    streams,
    ...(raw.packets ? { keyframes: keyframesOf(raw, streams.find((stream) => stream.type === 'video')?.index) } : {}),
  };
}

/** Keyframe times of the video stream's packets, from the container's start time. */
function keyframesOf(raw: RawProbe, videoIndex: number | undefined): number[] {
  const start = Number.parseFloat(raw.format?.start_time ?? '0') || 0;
  const times = (raw.packets ?? []).flatMap((packet) => {
    const time = Number.parseFloat(packet.pts_time ?? '');
    const isVideo = packet.stream_index === undefined || packet.stream_index === videoIndex;
    return isVideo && packet.flags?.includes('K') && Number.isFinite(time) ? [Math.max(0, time - start)] : [];
  });
  return [...new Set(times)].sort((a, b) => a - b);
}

function positive(text: string | undefined): number | undefined {
  const value = text === undefined ? Number.NaN : Number.parseFloat(text);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** `30/1` or `30000/1001`; `0/0` means unknown. */
function parseRate(text: string | undefined): number | undefined {
  const match = text ? /^(\d+)\/(\d+)$/.exec(text) : null;
  if (!match || Number(match[2]) === 0 || Number(match[1]) === 0) return undefined;
  return Number(match[1]) / Number(match[2]);
}
