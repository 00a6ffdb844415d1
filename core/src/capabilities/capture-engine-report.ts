// Which ffmpeg the service uses and what that build cannot do that a current one could on this
// platform (a screen or sound input, a hardware encoder): for the start-up output and State's
// `captureEngine`. Pure: it reads the probe the toolbox made.
import type { BuildProbe, FfmpegBuild, ToolSource } from '../media/ffmpeg-toolbox.js';
import type { CaptureEngineInfo } from '../protocol/index.js';

/** The command that fetches ffmpeg-static's current build (scripts/fetch-ffmpeg.mjs). */
export const FETCH_FFMPEG_COMMAND = 'npm run fetch-ffmpeg';

interface Feature {
  /** How the start-up line and State name it when it is missing. */
  missing: string;
  /** Present when the build lists any of these inputs (`-devices`, plus ddagrab from `-filters`) … */
  inputs?: readonly string[];
  /** … or any of these encoders (`-encoders`). */
  encoders?: readonly string[];
}

const nvenc: Feature = { missing: 'no NVENC encoder', encoders: ['h264_nvenc', 'hevc_nvenc', 'av1_nvenc'] };
const amf: Feature = { missing: 'no AMF encoder', encoders: ['h264_amf', 'hevc_amf', 'av1_amf'] };
const qsv: Feature = { missing: 'no Quick Sync (QSV) encoder', encoders: ['h264_qsv', 'hevc_qsv', 'av1_qsv'] };
const vaapi: Feature = { missing: 'no VAAPI encoder', encoders: ['h264_vaapi', 'hevc_vaapi', 'av1_vaapi'] };
const videotoolbox: Feature = { missing: 'no VideoToolbox encoder', encoders: ['h264_videotoolbox', 'hevc_videotoolbox'] };
const linux: readonly Feature[] = [
  { missing: 'no X11 screen input (x11grab)', inputs: ['x11grab'] },
  { missing: 'no PulseAudio input', inputs: ['pulse'] },
  vaapi,
  nvenc,
];

/** What a recording on each platform would use, when the build has it. */
const PLATFORM_FEATURES: Partial<Record<NodeJS.Platform, readonly Feature[]>> = {
  linux,
  freebsd: linux,
  win32: [
    { missing: 'no ddagrab (Desktop Duplication screen input)', inputs: ['ddagrab'] },
    { missing: 'no DirectShow input (dshow)', inputs: ['dshow'] },
    nvenc,
    amf,
    qsv,
  ],
  darwin: [{ missing: 'no AVFoundation input', inputs: ['avfoundation'] }, videotoolbox],
};

/** What this build lacks that this platform's recordings would use, in the order of PLATFORM_FEATURES. */
export function missingCapabilities(probe: Pick<BuildProbe, 'encoders' | 'inputFormats'>, platform: NodeJS.Platform): string[] {
  const encoders = new Set(probe.encoders.map((encoder) => encoder.name));
  return (PLATFORM_FEATURES[platform] ?? [])
    .filter(
      (feature) =>
        !(feature.inputs ?? []).some((input) => probe.inputFormats.has(input)) &&
        !(feature.encoders ?? []).some((encoder) => encoders.has(encoder)),
    )
    .map((feature) => feature.missing);
}

/**
 * The engine in use for State. `fix` only when something is missing. Windows and macOS: fetching
 * ffmpeg-static's build, unless that build is the one in use (or the user chose one with
 * FFMPEG_PATH): then a full one. Linux: the distribution's ffmpeg, found on PATH; ffmpeg-static's
 * Linux build has no PulseAudio, VAAPI or NVENC either, so the fetch would not help there.
 */
export function captureEngineInfo(
  build: FfmpegBuild,
  probe: Pick<BuildProbe, 'encoders' | 'inputFormats'>,
  platform: NodeJS.Platform,
): CaptureEngineInfo {
  const missing = missingCapabilities(probe, platform);
  const info: CaptureEngineInfo = { source: build.source, path: build.path, version: build.version, missing };
  if (missing.length === 0) return info;
  if (build.source === 'environment') return { ...info, fix: `set FFMPEG_PATH to a full ffmpeg build (${fullBuildAdvice(platform)})` };
  if (DISTRIBUTION_BUILD_PLATFORMS.has(platform)) {
    return { ...info, fix: `install the distribution's ffmpeg (${fullBuildAdvice(platform)}): Keyframe picks it up from PATH` };
  }
  return {
    ...info,
    fix:
      build.source === 'ffmpeg-static'
        ? `set FFMPEG_PATH to a full ffmpeg build (${fullBuildAdvice(platform)})`
        : `run: ${FETCH_FFMPEG_COMMAND}`,
  };
}

/** Where the distribution's ffmpeg has the platform's capture inputs and npm's builds do not. */
const DISTRIBUTION_BUILD_PLATFORMS: ReadonlySet<NodeJS.Platform> = new Set(['linux', 'freebsd']);

function fullBuildAdvice(platform: NodeJS.Platform): string {
  if (platform === 'win32') return 'winget install ffmpeg';
  if (platform === 'darwin') return 'brew install ffmpeg';
  if (platform === 'freebsd') return 'sudo pkg install ffmpeg';
  return 'sudo apt install ffmpeg';
}

const SOURCE_NAMES: Record<ToolSource, string> = {
  environment: 'FFMPEG_PATH',
  'ffmpeg-static': 'ffmpeg-static',
  'installer-package': '@ffmpeg-installer',
  path: 'PATH',
  downloaded: 'downloaded',
};

/** `Capture engine: ffmpeg 4.1 (@ffmpeg-installer, /path) — this build has no ddagrab (…); for one that has them run: npm run fetch-ffmpeg` */
export function captureEngineLine(info: CaptureEngineInfo): string {
  const engine = `Capture engine: ffmpeg ${info.version} (${SOURCE_NAMES[info.source]}, ${info.path})`;
  if (info.missing.length === 0) return engine;
  return `${engine} — this build has ${info.missing.join(', ')}${info.fix ? `; for one that has them ${info.fix}` : ''}`;
}

/** The line for a service without ffmpeg. */
export function noCaptureEngineLine(reason: string): string {
  return `Capture engine: none — ${reason}`;
}
