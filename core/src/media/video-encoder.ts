// The video half of a recording's ffmpeg arguments: which encoder (the chosen codec when this
// machine has it, else the best it has), rate control, a keyframe every second, pixel format.
import type { Codec, Settings } from '../protocol/index.js';
import type { GpuDeviceFiles } from '../platform/gpu.js';

export type EncoderFamily = 'nvenc' | 'qsv' | 'amf' | 'vaapi' | 'videotoolbox' | 'x264' | 'x265' | 'svtav1' | 'aom';
export type VideoFormat = 'h264' | 'hevc' | 'av1';

export interface EncoderProfile {
  /** The ffmpeg encoder name, `Codec.internalEncoderId`. */
  id: string;
  friendlyName: string;
  family: EncoderFamily;
  format: VideoFormat;
  hardware: boolean;
}

const profile = (id: string, friendlyName: string, family: EncoderFamily, format: VideoFormat, hardware: boolean): EncoderProfile => ({
  id,
  friendlyName,
  family,
  format,
  hardware,
});

/**
 * The encoders Keyframe offers, in order of preference: hardware NVENC > Quick Sync > AMF > VAAPI >
 * VideoToolbox, then software. Others the ffmpeg build may have are not offered.
 */
export const ENCODER_PROFILES: readonly EncoderProfile[] = [
  profile('h264_nvenc', 'H.264 (NVIDIA NVENC)', 'nvenc', 'h264', true),
  profile('hevc_nvenc', 'H.265 (NVIDIA NVENC)', 'nvenc', 'hevc', true),
  profile('av1_nvenc', 'AV1 (NVIDIA NVENC)', 'nvenc', 'av1', true),
  profile('h264_qsv', 'H.264 (Intel Quick Sync)', 'qsv', 'h264', true),
  profile('hevc_qsv', 'H.265 (Intel Quick Sync)', 'qsv', 'hevc', true),
  profile('av1_qsv', 'AV1 (Intel Quick Sync)', 'qsv', 'av1', true),
  profile('h264_amf', 'H.264 (AMD AMF)', 'amf', 'h264', true),
  profile('hevc_amf', 'H.265 (AMD AMF)', 'amf', 'hevc', true),
  profile('av1_amf', 'AV1 (AMD AMF)', 'amf', 'av1', true),
  profile('h264_vaapi', 'H.264 (VAAPI)', 'vaapi', 'h264', true),
  profile('hevc_vaapi', 'H.265 (VAAPI)', 'vaapi', 'hevc', true),
  profile('av1_vaapi', 'AV1 (VAAPI)', 'vaapi', 'av1', true),
  profile('h264_videotoolbox', 'H.264 (Apple VideoToolbox)', 'videotoolbox', 'h264', true),
  profile('hevc_videotoolbox', 'H.265 (Apple VideoToolbox)', 'videotoolbox', 'hevc', true),
  profile('libx264', 'H.264 (x264, CPU)', 'x264', 'h264', false),
  profile('libx265', 'H.265 (x265, CPU)', 'x265', 'hevc', false),
  profile('libsvtav1', 'AV1 (SVT-AV1, CPU)', 'svtav1', 'av1', false),
  profile('libaom-av1', 'AV1 (libaom, CPU)', 'aom', 'av1', false),
];

export const X264_PROFILE = ENCODER_PROFILES.find((entry) => entry.id === 'libx264')!;

export const encoderProfile = (id: string): EncoderProfile | undefined => ENCODER_PROFILES.find((entry) => entry.id === id);

export const toCodec = (entry: EncoderProfile): Codec => ({
  friendlyName: entry.friendlyName,
  internalEncoderId: entry.id,
  isHardwareEncoder: entry.hardware,
});

/** The recording settings this module reads (the global ones, or a game's quality override). */
export type VideoEncoderSettings = Pick<
  Settings,
  'encoder' | 'codec' | 'rateControl' | 'crfValue' | 'cqLevel' | 'bitrate' | 'minBitrate' | 'maxBitrate' | 'frameRate'
> & {
  /** Output size: the captured picture is scaled to fit (aspect kept, black bars). */
  width?: number;
  height?: number;
  /** x264's preset for a live encode that was stepped down because it could not keep up, in place of the live default. */
  x264Preset?: string;
};

export interface VideoEncoderOptions {
  /** Render node VAAPI encoders upload to. */
  vaapiDevice?: string;
  /**
   * Encoding a live capture (a recording), which has to keep up with the clock: x264 takes its
   * real-time preset, and keyframes fall on each second of the timeline, not on every n-th frame,
   * because a live encode that falls behind skips frames.
   */
  live?: boolean;
  /** Filters for the captured picture ahead of the scaling (`CaptureInputs.videoFilter`). */
  sourceFilter?: string;
  /** A live encode of the flat test pattern (`CaptureInputs.flatPicture`): x264 takes its cheapest preset. */
  flatPicture?: boolean;
  /** A software encoder's thread count (`-threads`); unset, the encoder's own choice. */
  threads?: number;
}

export const DEFAULT_VAAPI_DEVICE = '/dev/dri/renderD128';

export interface CodecChoice {
  codec: Codec;
  /** Why it is not the codec the settings asked for, when it is not. */
  reason?: string;
}

/**
 * The settings' codec when `available` has it; otherwise, for `gpu`, the preferred hardware encoder
 * (same format as the one asked for first), else x264; for `cpu`, x264 (or the same format in software).
 * With nothing available (engine not probed) x264, which every usable build has.
 */
export function chooseVideoCodec(settings: Pick<VideoEncoderSettings, 'encoder' | 'codec'>, available: readonly Codec[]): CodecChoice {
  const wanted = settings.codec;
  if (wanted && available.some((codec) => codec.internalEncoderId === wanted.internalEncoderId)) return { codec: wanted };
  const offered = ENCODER_PROFILES.filter((entry) => available.some((codec) => codec.internalEncoderId === entry.id));
  const wantedFormat = wanted ? encoderProfile(wanted.internalEncoderId)?.format : undefined;
  const hardware = settings.encoder === 'gpu';
  const pick = (entry: EncoderProfile | undefined) => {
    const chosen = entry ?? X264_PROFILE;
    if (wanted) return { codec: toCodec(chosen), reason: `${wanted.friendlyName} is not available on this machine` };
    if (hardware && !chosen.hardware) return { codec: toCodec(chosen), reason: 'no working hardware encoder was found' };
    return { codec: toCodec(chosen) };
  };
  const candidates = offered.filter((entry) => entry.hardware === hardware);
  return pick(
    candidates.find((entry) => entry.format === wantedFormat) ??
      candidates.find((entry) => entry.format === 'h264') ??
      candidates[0] ??
      offered.find((entry) => entry.id === 'libx264') ??
      offered[0],
  );
}

/** The ffmpeg output options for the video stream, after the `-map`s. */
export function videoEncoderArgs(settings: VideoEncoderSettings, available: readonly Codec[], options: VideoEncoderOptions = {}): string[] {
  const { codec } = chooseVideoCodec(settings, available);
  const entry = encoderProfile(codec.internalEncoderId) ?? X264_PROFILE;
  return encoderArgs(entry, settings, options);
}

/** The arguments for one known encoder, whether or not this machine has it (tables, test encodes). */
export function encoderArgs(entry: EncoderProfile, settings: VideoEncoderSettings, options: VideoEncoderOptions = {}): string[] {
  const vaapi = entry.family === 'vaapi';
  const filters = [
    ...(options.sourceFilter ? [options.sourceFilter] : []),
    ...(settings.width && settings.height ? [fitFilter(settings.width, settings.height)] : []),
    ...(vaapi ? ['format=nv12', 'hwupload'] : []),
  ];
  return [
    ...(vaapi ? ['-vaapi_device', options.vaapiDevice ?? DEFAULT_VAAPI_DEVICE] : []),
    ...(filters.length > 0 ? ['-vf', filters.join(',')] : []),
    ...encoderCodecArgs(entry, settings, { ...options, pixelFormat: !vaapi }),
  ];
}

/**
 * The encoder's own options, without the picture's filters: frame rate, codec, preset, rate control,
 * keyframes, and the pixel format unless `pixelFormat` is false (frames that are already on the GPU
 * keep the format their filters gave them).
 */
export function encoderCodecArgs(
  entry: EncoderProfile,
  settings: VideoEncoderSettings,
  options: VideoEncoderOptions & { pixelFormat?: boolean } = {},
): string[] {
  const frameRate = Math.max(1, Math.round(settings.frameRate));
  const gop = String(frameRate);
  return [
    '-r',
    String(frameRate),
    '-c:v',
    entry.id,
    ...presetArgs(entry.family, options, settings.x264Preset),
    ...(options.threads && !entry.hardware ? ['-threads', String(options.threads)] : []),
    ...rateControlArgs(entry.family, settings),
    '-g',
    gop,
    '-keyint_min',
    gop,
    ...(options.live ? ['-force_key_frames', 'expr:gte(t,n_forced)'] : []),
    ...KEYFRAME_EXTRAS[entry.family],
    ...(options.pixelFormat === false ? [] : ['-pix_fmt', entry.family === 'qsv' ? 'nv12' : 'yuv420p']),
  ];
}

/** On Linux, why `entry` cannot reach a GPU here: the device file its driver opens is missing. Undefined when it may try. */
export function missingGpuDevice(entry: EncoderProfile, devices: GpuDeviceFiles): string | undefined {
  if (entry.family === 'nvenc')
    return devices.nvidiaControl ? undefined : `${entry.friendlyName} needs the NVIDIA driver (/dev/nvidiactl), and it is not loaded`;
  if (entry.family === 'vaapi' || entry.family === 'qsv' || entry.family === 'amf')
    return devices.renderNodes.length > 0 ? undefined : `${entry.friendlyName} needs a render node (/dev/dri/renderD*), and there is none`;
  return undefined;
}

/** Scale into width×height keeping the aspect ratio; pad the rest black. */
export const fitFilter = (width: number, height: number) =>
  `scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1`;

/** Speed over size: the encoder has to keep up with a live game. */
const PRESETS: Record<EncoderFamily, string[]> = {
  x264: ['-preset', 'veryfast'],
  x265: ['-preset', 'superfast'],
  svtav1: ['-preset', '10'],
  aom: ['-usage', 'realtime', '-cpu-used', '8', '-row-mt', '1'],
  nvenc: ['-preset', 'p4'],
  qsv: ['-preset', 'veryfast'],
  amf: ['-usage', 'transcoding', '-quality', 'speed'],
  vaapi: [],
  videotoolbox: ['-realtime', '1'],
};

/**
 * A live encode must never fall behind the clock, and every frame it holds back is lost when the
 * service dies. x264: superfast with zerolatency (no look-ahead, no B-frames, slice threads) took
 * 15 ms of CPU a 1080p60 frame on a 2-core test machine where veryfast took 31 ms and could not
 * keep up (0.6-0.9x real time); ultrafast was slower still at recording bitrates (36 ms).
 */
const liveX264 = (preset: string) => ['-preset', preset, '-tune', 'zerolatency'];
const LIVE_PRESETS: Record<EncoderFamily, string[]> = { ...PRESETS, x264: liveX264('superfast') };

/**
 * On the flat test pattern nearly every block is skipped, so x264's ultrafast (which gave up too much
 * on a detailed picture, above) is the cheapest; zerolatency still keeps no frame back. One thread
 * keeps up with 1080p60 of it and saves the slice threads' hand-offs (~7 % of its CPU).
 */
const FLAT_PICTURE_PRESETS: Partial<Record<EncoderFamily, string[]>> = {
  x264: ['-preset', 'ultrafast', '-tune', 'zerolatency', '-threads', '1'],
};

/** The next faster x264 preset than `preset` (a live encode that cannot keep up steps down), undefined at the fastest or for an unknown one. */
export function fasterX264Preset(preset: string): string | undefined {
  const fastestFirst = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow', 'placebo'];
  const index = fastestFirst.indexOf(preset);
  return index > 0 ? fastestFirst[index - 1] : undefined;
}

function presetArgs(family: EncoderFamily, { live, flatPicture }: VideoEncoderOptions, x264Preset?: string): string[] {
  if (!live) return PRESETS[family];
  const flat = flatPicture ? FLAT_PICTURE_PRESETS[family] : undefined;
  if (flat) return flat; // already the fastest
  return family === 'x264' && x264Preset ? liveX264(x264Preset) : LIVE_PRESETS[family];
}

/** Keyframes on the second only: no extra ones at scene cuts (clips are cut on keyframes). */
const KEYFRAME_EXTRAS: Record<EncoderFamily, string[]> = {
  x264: ['-sc_threshold', '0'],
  x265: ['-x265-params', 'scenecut=0:log-level=error'],
  svtav1: [],
  aom: [],
  nvenc: ['-forced-idr', '1'],
  qsv: [],
  amf: [],
  vaapi: [],
  videotoolbox: [],
};

const kbps = (mbps: number) => `${Math.max(1, Math.round(mbps * 1000))}k`;

/**
 * CBR: the target is also the floor and the ceiling (one second of buffer). VBR: at least
 * `minBitrate`, peaks up to `maxBitrate`. CRF and CQP are quality numbers (`crfValue`, `cqLevel`);
 * encoders without such a mode get their nearest one (AMF and VAAPI: constant QP; VideoToolbox: `-q:v`).
 */
function rateControlArgs(family: EncoderFamily, settings: VideoEncoderSettings): string[] {
  const target = kbps(settings.bitrate);
  const low = kbps(Math.min(settings.minBitrate, settings.maxBitrate));
  const high = kbps(Math.max(settings.minBitrate, settings.maxBitrate));
  const cbr = ['-b:v', target, '-minrate', target, '-maxrate', target, '-bufsize', target];
  const vbr = ['-b:v', low, '-maxrate', high, '-bufsize', high];
  const crf = String(settings.crfValue);
  const cq = String(settings.cqLevel);
  switch (settings.rateControl) {
    case 'CBR':
      if (family === 'nvenc') return ['-rc', 'cbr', ...cbr];
      if (family === 'amf') return ['-rc', 'cbr', ...cbr];
      if (family === 'svtav1' || family === 'videotoolbox')
        return ['-b:v', target, ...(family === 'videotoolbox' ? ['-maxrate', target] : [])];
      // Without HRD signalling x264 treats CBR as a ceiling and undershoots on easy scenes (a quarter
      // of the target on a test pattern); with it, it pads up to the rate, as OBS's CBR does.
      if (family === 'x264') return [...cbr, '-x264-params', 'nal-hrd=cbr'];
      return cbr;
    case 'VBR':
      if (family === 'nvenc') return ['-rc', 'vbr', ...vbr];
      if (family === 'amf') return ['-rc', 'vbr_peak', ...vbr];
      if (family === 'svtav1') return ['-b:v', low];
      if (family === 'videotoolbox') return ['-b:v', low, '-maxrate', high];
      return vbr;
    case 'CRF':
      switch (family) {
        case 'nvenc':
          return ['-rc', 'vbr', '-cq', crf, '-b:v', '0'];
        case 'qsv':
          return ['-global_quality', crf];
        case 'amf':
          return ['-rc', 'cqp', '-qp_i', crf, '-qp_p', crf];
        case 'vaapi':
          return ['-qp', crf];
        case 'videotoolbox':
          return ['-q:v', toolboxQuality(settings.crfValue)];
        case 'aom':
          return ['-crf', crf, '-b:v', '0'];
        default:
          return ['-crf', crf];
      }
    case 'CQP':
      switch (family) {
        case 'nvenc':
          return ['-rc', 'constqp', '-qp', cq];
        case 'qsv':
          return ['-q:v', cq];
        case 'amf':
          return ['-rc', 'cqp', '-qp_i', cq, '-qp_p', cq];
        case 'videotoolbox':
          return ['-q:v', toolboxQuality(settings.cqLevel)];
        case 'aom':
          return ['-crf', cq, '-b:v', '0'];
        default:
          return ['-qp', cq];
      }
  }
}

/** VideoToolbox quality runs 1–100 (higher is better); CRF/QP 0–51 the other way round. */
const toolboxQuality = (value: number) => String(Math.min(100, Math.max(1, Math.round(100 - (value * 100) / 51))));
