// What a clip job runs, worked out without running anything: where each segment can be cut by stream
// copy (its start on a keyframe), where only its head needs re-encoding ("smart cut"), and the ffmpeg
// arguments of the full re-encode (one run: each segment an input, joined by the concat filter).
import type { Codec, Settings } from '../protocol/index.js';
import {
  chooseVideoCodec,
  encoderArgs,
  encoderProfile,
  ENCODER_PROFILES,
  X264_PROFILE,
  type EncoderProfile,
  type VideoFormat,
} from './video-encoder.js';
import { fileInput } from './file-input.js';

/** The clip quality settings (the clip preset's fields). */
export type ClipQuality = Pick<
  Settings,
  'clipEncoder' | 'clipCodec' | 'clipQualityCpu' | 'clipQualityGpu' | 'clipFps' | 'clipAudioQuality' | 'clipPreset'
>;

/** What a source video holds, as far as cutting it goes. */
export interface ClipSource {
  path: string;
  durationSeconds: number;
  /** ffprobe codec name of the first video stream (`h264`, `hevc`, `av1`). */
  videoCodec: string | undefined;
  width: number;
  height: number;
  frameRate: number;
  /** Audio streams in order: track index = position. */
  audioTracks: { codec: string | undefined; sampleRate?: number; channels?: number; title?: string }[];
}

/** One piece of the clip: a span of a source and what happens to its audio tracks. */
export interface ClipPiece {
  source: ClipSource;
  startSeconds: number;
  endSeconds: number;
  mutedAudioTracks: readonly number[];
  /** Track index to volume factor (1 = unchanged). */
  audioTrackVolumes: Readonly<Record<number, number>>;
}

const CLIP_FORMATS: Record<ClipQuality['clipCodec'], VideoFormat> = { h264: 'h264', h265: 'hevc', av1: 'av1' };
const PROBE_CODECS: Record<VideoFormat, string> = { h264: 'h264', hevc: 'hevc', av1: 'av1' };

/**
 * The encoder for clips: the preset's format on the kind of encoder it asks for (`gpu`: hardware
 * first), from the codecs that work on this machine; x264 when none of that format works.
 */
export function chooseClipEncoder(quality: Pick<ClipQuality, 'clipEncoder' | 'clipCodec'>, available: readonly Codec[]): EncoderProfile {
  const format = CLIP_FORMATS[quality.clipCodec];
  const hardware = quality.clipEncoder === 'gpu';
  const offered = ENCODER_PROFILES.filter((entry) => available.some((codec) => codec.internalEncoderId === entry.id));
  const sameFormat = offered.filter((entry) => entry.format === format);
  const chosen = sameFormat.find((entry) => entry.hardware === hardware) ?? sameFormat.find((entry) => !entry.hardware) ?? sameFormat[0];
  if (chosen) return chosen;
  const fallback = chooseVideoCodec({ encoder: quality.clipEncoder, codec: null }, available).codec;
  return encoderProfile(fallback.internalEncoderId) ?? X264_PROFILE;
}

/** The clip's frame rate: the preset's, but never more than the source has (0 keeps the source's). */
export function clipFrameRate(quality: Pick<ClipQuality, 'clipFps'>, sourceFrameRate: number): number {
  const source = sourceFrameRate > 0 ? sourceFrameRate : 60;
  return quality.clipFps > 0 ? Math.min(quality.clipFps, source) : source;
}

/** Video output options for `encoder` at the preset's quality, speed and frame rate. */
export function clipVideoArgs(
  quality: ClipQuality,
  encoder: EncoderProfile,
  frameRate: number,
  size?: { width: number; height: number },
): string[] {
  const hardware = encoder.hardware;
  const args = encoderArgs(encoder, {
    encoder: quality.clipEncoder,
    codec: null,
    rateControl: 'CRF',
    crfValue: hardware ? quality.clipQualityGpu : quality.clipQualityCpu,
    cqLevel: hardware ? quality.clipQualityGpu : quality.clipQualityCpu,
    bitrate: 10,
    minBitrate: 8,
    maxBitrate: 12,
    frameRate,
    ...(size ?? {}),
  });
  // The clip preset names an x264/x265 speed; the recording table's speed is for live encoding.
  if (encoder.family === 'x264' || encoder.family === 'x265') {
    const at = args.indexOf('-preset');
    if (at >= 0) args[at + 1] = quality.clipPreset;
  }
  // `encoderArgs` fixes the rate with `-r`; a fractional source rate must stay as it is.
  const rate = args.indexOf('-r');
  if (rate >= 0) args[rate + 1] = String(Number(frameRate.toFixed(3)));
  return args;
}

/** True when a track of this piece is muted or played at another volume. */
export function changesAudio(piece: Pick<ClipPiece, 'mutedAudioTracks' | 'audioTrackVolumes' | 'source'>): boolean {
  const tracks = piece.source.audioTracks.length;
  return (
    piece.mutedAudioTracks.some((track) => track < tracks) ||
    Object.entries(piece.audioTrackVolumes).some(([track, volume]) => Number(track) < tracks && volume !== 1)
  );
}

/**
 * Whether the clip can be made by copying the sources' streams: the preset's video format is the
 * sources', its frame rate does not lower theirs, no audio changes, and all pieces agree on picture
 * size, codec and audio layout (the concat demuxer joins streams of one shape only).
 */
export function allowsCopy(quality: ClipQuality, pieces: readonly ClipPiece[], keepSeparateTracks: boolean): boolean {
  const first = pieces[0]?.source;
  if (!first) return false;
  const format = PROBE_CODECS[CLIP_FORMATS[quality.clipCodec]];
  const kept = (source: ClipSource) => (keepSeparateTracks ? source.audioTracks : source.audioTracks.slice(0, 1));
  const audioShape = (source: ClipSource) =>
    kept(source)
      .map((track) => `${track.codec}/${track.sampleRate}/${track.channels}`)
      .join(',');
  return pieces.every(
    ({ source, ...piece }) =>
      source.videoCodec === format &&
      (quality.clipFps === 0 || quality.clipFps >= source.frameRate - 0.5) &&
      !changesAudio({ source, ...piece }) &&
      source.width === first.width &&
      source.height === first.height &&
      source.videoCodec === first.videoCodec &&
      Math.abs(source.frameRate - first.frameRate) < 0.01 &&
      audioShape(source) === audioShape(first),
  );
}

export type CutPlan =
  /** Stream copy from the keyframe at `fromSeconds`. */
  | { kind: 'copy'; fromSeconds: number; toSeconds: number }
  /** Re-encode `fromSeconds`..`keyframeSeconds`, stream copy `keyframeSeconds`..`toSeconds`. */
  | { kind: 'smart'; fromSeconds: number; keyframeSeconds: number; toSeconds: number }
  /** No keyframe inside: re-encode all of it (it is shorter than a keyframe interval). */
  | { kind: 'encode'; fromSeconds: number; toSeconds: number };

/**
 * How to cut `start`..`end` given the keyframe times (seconds from the video's start, sorted): a
 * start within half a frame of a keyframe is on it. The end needs no keyframe: copy ends anywhere.
 */
export function planCut(startSeconds: number, endSeconds: number, keyframes: readonly number[], frameSeconds: number): CutPlan {
  const tolerance = frameSeconds / 2;
  const onKeyframe = keyframes.find((time) => Math.abs(time - startSeconds) <= tolerance);
  if (onKeyframe !== undefined) return { kind: 'copy', fromSeconds: onKeyframe, toSeconds: endSeconds };
  const next = keyframes.find((time) => time > startSeconds + tolerance);
  if (next === undefined || next >= endSeconds - tolerance) return { kind: 'encode', fromSeconds: startSeconds, toSeconds: endSeconds };
  return { kind: 'smart', fromSeconds: startSeconds, keyframeSeconds: next, toSeconds: endSeconds };
}

/**
 * The names of the clip's audio tracks: every track of the sources (the most any piece has), or with
 * `clipKeepSeparateAudioTracks` off the one track a clip then has (the first: a recording's full mix).
 */
export function outputTrackNames(pieces: readonly Pick<ClipPiece, 'source'>[], keepSeparateTracks: boolean): (string | undefined)[] {
  const tracks = Math.max(0, ...pieces.map((piece) => piece.source.audioTracks.length));
  const count = keepSeparateTracks ? tracks : Math.min(1, tracks);
  return Array.from({ length: count }, (_, track) => pieces.map((piece) => piece.source.audioTracks[track]?.title).find(Boolean));
}

/** The `-map` of the audio a copied or head-encoded part keeps. */
const audioMap = (keepSeparateTracks: boolean) => (keepSeparateTracks ? '0:a?' : '0:a:0?');

/** `-metadata:s:a:N` title and handler name for each track name, so players list the tracks by name. */
export function trackNameArgs(names: readonly (string | undefined)[]): string[] {
  return names.flatMap((name, index) =>
    name ? [`-metadata:s:a:${index}`, `title=${name}`, `-metadata:s:a:${index}`, `handler_name=${name}`] : [],
  );
}

const seconds = (value: number) => value.toFixed(6);

/** The audio filter of one track of one piece: silence when muted, else its volume. */
function trackFilter(piece: ClipPiece, track: number): string {
  if (piece.mutedAudioTracks.includes(track)) return 'volume=0';
  const volume = piece.audioTrackVolumes[track];
  return volume !== undefined && volume !== 1 ? `volume=${volume}` : 'anull';
}

const volumeOf = (piece: ClipPiece, track: number) => (piece.mutedAudioTracks.includes(track) ? 0 : (piece.audioTrackVolumes[track] ?? 1));

/**
 * Filter chains that give output track `track` of piece `index` the label `[label]` (before it is
 * fitted to 48 kHz stereo and the piece's length). Every track kept: the source's track of that
 * index, muted or at its volume. One track: the first, unless audio is changed in a source with
 * separate tracks (track 0 the full mix, 1… its parts), where the parts that are not muted are mixed
 * again at their volumes, track 0's volume over the whole; all muted gives silence.
 */
function pieceTrackChains(piece: ClipPiece, index: number, track: number, keepSeparateTracks: boolean, label: string): string[] {
  const tracks = piece.source.audioTracks.length;
  const silence = `aevalsrc=0|0:s=48000[${label}]`;
  if (keepSeparateTracks || tracks < 2 || !changesAudio(piece)) {
    return track < tracks ? [`[${index}:a:${track}]${trackFilter(piece, track)}[${label}]`] : [silence];
  }
  const whole = volumeOf(piece, 0);
  const parts = Array.from({ length: tracks - 1 }, (_, part) => part + 1).filter((part) => volumeOf(piece, part) > 0);
  if (whole === 0 || parts.length === 0) return [silence];
  const inputs = parts.map((part) => `[${index}:a:${part}]volume=${volumeOf(piece, part)}[${label}_${part}]`);
  // amix divides by its input count: multiplied back, so the parts sum as they were recorded.
  return [
    ...inputs,
    `${parts.map((part) => `[${label}_${part}]`).join('')}amix=inputs=${parts.length}:duration=longest,volume=${parts.length * whole}[${label}]`,
  ];
}

export interface EncodeArgsOptions {
  quality: ClipQuality;
  encoder: EncoderProfile;
  target: string;
  /** Container of the target, whatever its name ends with (`mp4`, `mpegts`). */
  format?: string;
  /** `clipKeepSeparateAudioTracks`: every audio track kept, else one. */
  keepSeparateTracks: boolean;
}

/**
 * One ffmpeg run that re-encodes every piece and joins them: each piece is an input read from its
 * start for its length; pictures are fitted to the first piece's size at the clip frame rate;
 * every track of the clip (the most any piece has) is kept, a piece without it adds silence.
 */
export function encodeArgs(pieces: readonly ClipPiece[], options: EncodeArgsOptions): string[] {
  const first = pieces[0]!.source;
  const frameRate = clipFrameRate(options.quality, first.frameRate);
  const names = outputTrackNames(pieces, options.keepSeparateTracks);
  const tracks = names.length;
  const width = even(first.width);
  const height = even(first.height);
  const inputs = pieces.flatMap((piece) => [
    '-ss',
    seconds(piece.startSeconds),
    '-t',
    seconds(piece.endSeconds - piece.startSeconds),
    ...fileInput(piece.source.path),
  ]);
  const chains: string[] = [];
  const joined: string[] = [];
  pieces.forEach((piece, index) => {
    const length = seconds(piece.endSeconds - piece.startSeconds);
    chains.push(
      `[${index}:v:0]scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=${Number(frameRate.toFixed(3))},format=yuv420p,trim=duration=${length},setpts=PTS-STARTPTS[v${index}]`,
    );
    joined.push(`[v${index}]`);
    for (let track = 0; track < tracks; track++) {
      const label = `a${index}_${track}`;
      chains.push(...pieceTrackChains(piece, index, track, options.keepSeparateTracks, `${label}_in`));
      chains.push(
        `[${label}_in]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,apad,atrim=duration=${length},asetpts=PTS-STARTPTS[${label}]`,
      );
      joined.push(`[${label}]`);
    }
  });
  const outputs = ['[v]', ...Array.from({ length: tracks }, (_, track) => `[a${track}]`)];
  chains.push(`${joined.join('')}concat=n=${pieces.length}:v=1:a=${tracks}${outputs.join('')}`);
  const videoArgs = clipVideoArgs(options.quality, options.encoder, frameRate).filter(
    (_, index, all) => all[index] !== '-vf' && all[index - 1] !== '-vf',
  );
  return [
    ...inputs,
    '-filter_complex',
    chains.join(';'),
    '-map',
    '[v]',
    ...outputs.slice(1).flatMap((label) => ['-map', label]),
    ...videoArgs,
    ...(tracks > 0 ? ['-c:a', 'aac', '-b:a', options.quality.clipAudioQuality] : []),
    ...trackNameArgs(names),
    '-map_metadata',
    '-1',
    '-movflags',
    '+faststart',
    ...(options.format ? ['-f', options.format] : []),
    '-y',
    options.target,
  ];
}

/**
 * The head of a smart cut: `from`..`keyframe` re-encoded with the source's own picture size, rate and
 * codec so that it joins the copied rest; audio re-encoded alike. MPEG-TS keeps each part's
 * parameter sets in band, so the joined stream decodes across the seam.
 */
export function headArgs(
  piece: ClipPiece,
  toSeconds: number,
  options: { encoder: EncoderProfile; quality: ClipQuality; target: string; keepSeparateTracks: boolean },
): string[] {
  const source = piece.source;
  const frameRate = source.frameRate > 0 ? source.frameRate : 30;
  return [
    '-ss',
    seconds(piece.startSeconds),
    '-t',
    seconds(toSeconds - piece.startSeconds),
    ...fileInput(source.path),
    '-map',
    '0:v:0',
    '-map',
    audioMap(options.keepSeparateTracks),
    ...clipVideoArgs(options.quality, options.encoder, frameRate),
    // A head is a few frames: x264's look-ahead and B-frames only delay them (~10% of the head's CPU).
    ...(options.encoder.family === 'x264' ? ['-tune', 'zerolatency'] : []),
    '-c:a',
    'aac',
    '-b:a',
    options.quality.clipAudioQuality,
    ...source.audioTracks.flatMap((track, index) => (track.sampleRate ? [`-ar:a:${index}`, String(track.sampleRate)] : [])),
    '-f',
    'mpegts',
    '-y',
    options.target,
  ];
}

/**
 * A stream copy of `from`..`to` (from a keyframe): into MPEG-TS to be joined with other parts, or
 * into the clip's MP4 when it is the whole clip (the streams keep their names).
 */
/**
 * Room for the index (moov) at the front of a stream-copied MP4 of `seconds`: the clip is web-ready
 * without faststart's second pass over the whole file. Bound per second: 240 video frames and 100 audio
 * frames per track (AAC at 96 kHz), 20 bytes per sample (size, composition offset, chunk offset), plus
 * the fixed boxes. A clip that needs more fails its copy, and is then cut the slower way.
 */
export function reservedIndexBytes(seconds: number, audioTracks: number): number {
  return Math.ceil(seconds * (240 + 100 * audioTracks) * 20) + 64 * 1024;
}

export interface CopyOptions {
  format: 'mpegts' | 'mp4';
  keepSeparateTracks: boolean;
  /** Audio tracks in the source; sizes an MP4's reserved index. */
  audioTracks: number;
}

export function copyArgs(sourcePath: string, fromSeconds: number, toSeconds: number, target: string, options: CopyOptions): string[] {
  // Input seeking lands near (in a fragmented MP4 without an index, well before) the keyframe; the
  // output seek then drops what comes before it, and stream copy starts at the first keyframe after.
  const approach = Math.max(0, fromSeconds - 3);
  return [
    '-ss',
    seconds(approach),
    ...fileInput(sourcePath),
    '-ss',
    seconds(Math.max(0, fromSeconds - approach - 0.005)),
    '-t',
    seconds(toSeconds - fromSeconds),
    '-map',
    '0:v:0',
    '-map',
    audioMap(options.keepSeparateTracks),
    '-c',
    'copy',
    ...(options.format === 'mp4'
      ? ['-moov_size', String(reservedIndexBytes(toSeconds - fromSeconds, options.keepSeparateTracks ? options.audioTracks : 1))]
      : []),
    '-f',
    options.format,
    '-y',
    target,
  ];
}

/**
 * Joins MPEG-TS parts listed in a concat list into the clip (stream copy). With `reserveIndexFor` (the
 * clip's seconds) the index is written into room reserved at the front, sized as for a copy
 * (`reservedIndexBytes`), instead of by faststart's second pass over the file.
 */
export function joinArgs(
  listFile: string,
  target: string,
  trackNames: readonly (string | undefined)[],
  reserveIndexFor?: number,
): string[] {
  return [
    '-safe',
    '0',
    ...fileInput(listFile, 'concat'),
    '-map',
    '0:v:0',
    '-map',
    '0:a?',
    '-c',
    'copy',
    '-bsf:a',
    'aac_adtstoasc',
    ...trackNameArgs(trackNames),
    ...(reserveIndexFor === undefined
      ? ['-movflags', '+faststart']
      : ['-moov_size', String(reservedIndexBytes(reserveIndexFor, Math.max(1, trackNames.length)))]),
    '-f',
    'mp4',
    '-y',
    target,
  ];
}

/** A concat demuxer list of these files. */
export function concatList(files: readonly string[]): string {
  return files.map((file) => `file '${file.replaceAll("'", "'\\''")}'\n`).join('');
}

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
