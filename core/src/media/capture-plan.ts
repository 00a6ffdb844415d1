// The picture's whole path of a recording planned from what the machine has: the screen input, the
// encoder, and the filters between them, each choice with a reason a user can read and every
// fallback with why. Pure: the machine's facts, the probed ffmpeg build and the results of the
// start-up test encodes come in as data, so every platform and capability set is tested here.
import type { DetectedDisplay } from '../platform/displays.js';
import { findDisplay } from '../platform/displays.js';
import { VENDOR_PREFERENCE, type GpuVendor } from '../platform/gpu.js';
import type { Display } from '../protocol/index.js';
import { screenInputArgs, type ScreenGrabber } from './capture-source.js';
import { listedProfiles, type BuildProbe } from './ffmpeg-toolbox.js';
import {
  DEFAULT_VAAPI_DEVICE,
  encoderCodecArgs,
  encoderProfile,
  fitFilter,
  missingGpuDevice,
  X264_PROFILE,
  type EncoderFamily,
  type EncoderProfile,
  type VideoEncoderSettings,
} from './video-encoder.js';

export type PlannedGrabber = ScreenGrabber | 'ddagrab';

/** What the planner knows about the machine, besides its ffmpeg. */
export interface CaptureMachine {
  platform: NodeJS.Platform;
  /** The environment's `DISPLAY`, `WAYLAND_DISPLAY` and `XDG_SESSION_TYPE`. */
  variables: Readonly<Record<string, string | undefined>>;
  /** Linux render nodes (`detectRenderNodes`): VAAPI encodes on the first. */
  renderNodes: readonly string[];
  /** Linux: NVIDIA's `/dev/nvidiactl` exists (NVENC needs the driver loaded). */
  nvidiaControl?: boolean;
  /** The graphics vendors found (`detectGpu`); the preferred one's encoder is tried first. */
  gpuVendors: readonly GpuVendor[];
  displays: readonly DetectedDisplay[];
  /** Logical processors (`os.availableParallelism()`): a CPU encoder leaves some of them to the game. */
  cores: number;
}

export interface CapturePlanRequest {
  machine: CaptureMachine;
  build: Pick<BuildProbe, 'version' | 'encoders' | 'inputFormats' | 'filters'>;
  /** The recording's settings: encoder choice, codec, rate control, output size (`width`×`height`) and frame rate. */
  settings: VideoEncoderSettings;
  /** `settings.selectedDisplay`; null or unknown → the primary display. */
  display?: Display | null;
  /** Hardware encoders whose start-up test encode passed; one the build lists but that failed it is not used. */
  testedEncoders: ReadonlySet<string>;
}

export interface CaptureFallback {
  wanted: string;
  used: string;
  why: string;
}

export interface CapturePlan {
  grabber: PlannedGrabber;
  /** ffmpeg input options and the `-i` of the picture. */
  grabArgs: string[];
  /** The picture's filter chain between the grab and the encoder (empty: the frames go straight in). */
  videoFilters: string[];
  /** What the recording's other outputs (preview, on-screen text) put first to get CPU frames: empty unless the grab's are on the GPU. */
  cpuFilters: string[];
  /** The ffmpeg encoder (`Codec.internalEncoderId`). */
  encoder: string;
  /** The encoder's output options, without `-vf`. */
  encoderArgs: string[];
  /** Each choice and why, for the user. */
  reasons: string[];
  fallbacks: CaptureFallback[];
}

/** No screen can be recorded: why, for the user. */
export interface NoScreenCapture {
  grabber: null;
  why: string;
}

/** Encoder families that can take this platform's captured frames. */
const PLATFORM_FAMILIES: Partial<Record<NodeJS.Platform, readonly EncoderFamily[]>> = {
  win32: ['nvenc', 'amf', 'qsv'],
  linux: ['vaapi', 'nvenc'],
  freebsd: ['vaapi'],
  darwin: ['videotoolbox'],
};
const FAMILY_VENDORS: Partial<Record<EncoderFamily, readonly GpuVendor[]>> = {
  nvenc: ['Nvidia'],
  amf: ['AMD'],
  qsv: ['Intel'],
  vaapi: ['AMD', 'Intel'],
};
const PLATFORM_NAMES: Partial<Record<NodeJS.Platform, string>> = { win32: 'Windows', linux: 'Linux', darwin: 'macOS', freebsd: 'FreeBSD' };

export function planCapture(request: CapturePlanRequest): CapturePlan | NoScreenCapture {
  const grab = chooseGrabber(request);
  if ('why' in grab) return { grabber: null, why: grab.why };
  const encoder = chooseEncoder(request);
  const display = findDisplay(request.machine.displays, request.display);
  const path = picturePath(grab.grabber, encoder.entry, request, display);
  const frameRate = Math.max(1, Math.round(request.settings.frameRate));
  const grabArgs =
    grab.grabber === 'ddagrab'
      ? ddagrabArgs(frameRate, display, request.machine.displays)
      : screenInputArgs(grab.grabber, frameRate, display, request.machine.displays, request.machine.variables.DISPLAY ?? ':0');
  const vaapiDevice = encoder.entry.family === 'vaapi' ? ['-vaapi_device', request.machine.renderNodes[0] ?? DEFAULT_VAAPI_DEVICE] : [];
  const threads = encoder.entry.hardware ? undefined : encoderThreads(request.machine.cores, request.settings);
  const fallbacks = [...grab.fallbacks, ...encoder.fallbacks];
  return {
    grabber: grab.grabber,
    grabArgs,
    videoFilters: path.filters,
    cpuFilters: grab.grabber === 'ddagrab' ? [...DOWNLOAD_FILTERS] : [],
    encoder: encoder.entry.id,
    encoderArgs: [
      ...vaapiDevice,
      ...encoderCodecArgs(encoder.entry, request.settings, {
        live: true,
        pixelFormat: !path.gpuFrames,
        ...(threads?.count ? { threads: threads.count } : {}),
      }),
    ],
    reasons: [
      grab.reason,
      encoder.reason,
      path.reason,
      ...(threads ? [threads.reason] : []),
      ...cpuLoadWarning(encoder.entry, request.settings, fallbacks),
    ],
    fallbacks,
  };
}

/** ddagrab's Direct3D 11 textures as CPU frames. */
const DOWNLOAD_FILTERS = ['hwdownload', 'format=bgra'];

/**
 * The software encoder's threads: all but one core, so the game keeps one to itself. On two cores x264
 * at 1080p60 needs both (measured on a 2-core machine: 1 thread encoded 46 frames a second of it, 2
 * threads 62), so only a light picture (720p30's pixel rate or less, where 1 thread kept up 2.3 times
 * over) is held to one thread there; heavier ones get x264's own count (1.5× the cores) and the reason says so.
 */
export function encoderThreads(cores: number, settings: Pick<VideoEncoderSettings, 'width' | 'height' | 'frameRate'>): EncoderThreads {
  if (cores > 2)
    return { count: cores - 1, reason: `threads: ${cores - 1} of ${cores} cores for the CPU encoder: one stays free for the game` };
  const pixelRate = (settings.width ?? 1920) * (settings.height ?? 1080) * settings.frameRate;
  if (pixelRate <= LIGHT_PIXEL_RATE)
    return { count: 1, reason: `threads: 1 of ${cores} cores for the CPU encoder: it keeps up on one, the other stays free for the game` };
  return {
    reason: `threads: x264 takes all ${cores} cores: on ${cores} cores one thread cannot keep up with ${settings.height ?? 1080}p at ${Math.round(settings.frameRate)} fps`,
  };
}

interface EncoderThreads {
  /** Unset: the encoder's own count. */
  count?: number;
  reason: string;
}

/** 720p30 in pixels a second: what one x264 thread keeps up with, with room to spare, on a slow core. */
const LIGHT_PIXEL_RATE = 1280 * 720 * 30;

/** A CPU encode at 60 fps of 1080p or more, where a GPU encode was wanted, is said out loud. */
function cpuLoadWarning(entry: EncoderProfile, settings: VideoEncoderSettings, fallbacks: readonly CaptureFallback[]): string[] {
  const heavy = Math.round(settings.frameRate) >= 60 && (settings.height ?? 0) >= 1080;
  if (entry.hardware || !heavy || !fallbacks.some((fallback) => fallback.used === entry.id)) return [];
  return [
    `warning: ${settings.height}p at ${Math.round(settings.frameRate)} fps on the CPU (${entry.friendlyName}) because the GPU encode is not available: a game loses processor time to it; 30 fps or a lower resolution costs half`,
  ];
}

type GrabChoice = { grabber: PlannedGrabber; reason: string; fallbacks: CaptureFallback[] } | { why: string };

/** Why a Windows build lacks ddagrab: too old (it came in 6.0), or built without it (a trimmed build). */
function withoutDdagrab(version: string): string {
  const major = Number(/^n?(\d+)\./.exec(version)?.[1]);
  return major >= 6
    ? "was built without ddagrab (full builds, such as gyan.dev's or BtbN's, have it)"
    : 'has no ddagrab (it needs ffmpeg 6.0 or later)';
}

function chooseGrabber({ machine, build }: CapturePlanRequest): GrabChoice {
  const has = (input: string) => build.inputFormats.has(input);
  const ffmpeg = `ffmpeg ${build.version}`;
  switch (machine.platform) {
    case 'win32': {
      if (has('ddagrab'))
        return {
          grabber: 'ddagrab',
          reason: 'screen: ddagrab (Desktop Duplication): the picture stays on the GPU and exclusive-fullscreen games are captured',
          fallbacks: [],
        };
      if (!has('gdigrab')) return { why: `${ffmpeg} has neither ddagrab nor gdigrab: it cannot grab the screen` };
      const why = `${ffmpeg} ${withoutDdagrab(build.version)}: gdigrab is slower and misses exclusive-fullscreen games`;
      return {
        grabber: 'gdigrab',
        reason: `screen: gdigrab, the last resort: ${why}`,
        fallbacks: [{ wanted: 'ddagrab', used: 'gdigrab', why }],
      };
    }
    case 'linux':
    case 'freebsd': {
      const { DISPLAY, WAYLAND_DISPLAY, XDG_SESSION_TYPE } = machine.variables;
      const wayland = XDG_SESSION_TYPE === 'wayland' || Boolean(WAYLAND_DISPLAY);
      if (wayland && !DISPLAY)
        return {
          why: 'this is a Wayland session without an X display: ffmpeg grabs only X11 screens (x11grab); log in with an X11 (Xorg) session to record the screen',
        };
      if (!DISPLAY) return { why: 'there is no X display (DISPLAY is not set)' };
      if (!has('x11grab')) return { why: `${ffmpeg} has no x11grab input` };
      const reason = wayland
        ? `screen: x11grab on ${DISPLAY}; this is a Wayland session: only X11 (XWayland) windows are seen, native Wayland ones stay black`
        : `screen: x11grab on ${DISPLAY}`;
      return { grabber: 'x11grab', reason, fallbacks: [] };
    }
    case 'darwin':
      if (!has('avfoundation')) return { why: `${ffmpeg} has no avfoundation input` };
      return { grabber: 'avfoundation', reason: 'screen: avfoundation', fallbacks: [] };
    default:
      return { why: `screen capture on ${machine.platform} is not supported` };
  }
}

interface EncoderChoice {
  entry: EncoderProfile;
  reason: string;
  fallbacks: CaptureFallback[];
}

function chooseEncoder({ machine, build, settings, testedEncoders }: CapturePlanRequest): EncoderChoice {
  const listed = listedProfiles(build);
  const families = PLATFORM_FAMILIES[machine.platform] ?? [];
  const ffmpeg = `ffmpeg ${build.version}`;
  /** Undefined when the encoder can record here, else why not. */
  const problem = (entry: EncoderProfile): string | undefined => {
    if (!listed.includes(entry)) return `${ffmpeg} has no ${entry.id} encoder`;
    if (!entry.hardware) return undefined;
    if (!families.includes(entry.family))
      return `${entry.friendlyName} does not run on ${PLATFORM_NAMES[machine.platform] ?? machine.platform}`;
    const linux = machine.platform === 'linux' || machine.platform === 'freebsd';
    const missingDevice = linux
      ? missingGpuDevice(entry, { renderNodes: machine.renderNodes, nvidiaControl: machine.nvidiaControl ?? false })
      : undefined;
    if (missingDevice) return missingDevice;
    if (!testedEncoders.has(entry.id)) return `${entry.friendlyName} failed its start-up test encode`;
    return undefined;
  };
  const wanted = settings.codec ? encoderProfile(settings.codec.internalEncoderId) : undefined;
  const wantedProblem = wanted && problem(wanted);
  if (wanted && !wantedProblem)
    return { entry: wanted, reason: `encoder: ${wanted.friendlyName}, as the settings ask${tested(wanted)}`, fallbacks: [] };
  const format = wanted?.format ?? 'h264';
  const software = listed.find((entry) => !entry.hardware && entry.format === format) ?? X264_PROFILE;
  const fallback = (entry: EncoderProfile, reason: string, hardwareWanted?: { id: string; why: string }): EncoderChoice => {
    const why = wantedProblem ?? hardwareWanted?.why;
    const wantedId = wanted?.id ?? hardwareWanted?.id;
    return { entry, reason, fallbacks: why && wantedId ? [{ wanted: wantedId, used: entry.id, why }] : [] };
  };
  if (settings.encoder === 'cpu') return fallback(software, `encoder: ${software.friendlyName}, as the settings ask for the CPU`);
  const ranked = rankByVendor(
    listed.filter((entry) => entry.hardware && families.includes(entry.family)),
    machine.gpuVendors,
  );
  const usable = ranked.filter((entry) => !problem(entry));
  const hardware = usable.find((entry) => entry.format === format) ?? usable.find((entry) => entry.format === 'h264') ?? usable[0];
  if (hardware) return fallback(hardware, `encoder: ${hardware.friendlyName}${onVendor(hardware, machine.gpuVendors)}${tested(hardware)}`);
  // Why not the hardware encoders of the format asked for (all of them when there is none of it).
  const explained = ranked.some((entry) => entry.format === format) ? ranked.filter((entry) => entry.format === format) : ranked;
  const why =
    explained.length > 0 ? explained.map((entry) => problem(entry)!).join('; ') : `${ffmpeg} has no hardware encoder for this platform`;
  return fallback(software, `encoder: ${software.friendlyName} on the CPU: ${why}`, { id: explained[0]?.id ?? 'a hardware encoder', why });
}

const tested = (entry: EncoderProfile) => (entry.hardware ? '; it passed the start-up test encode' : '');

function onVendor(entry: EncoderProfile, vendors: readonly GpuVendor[]): string {
  const vendor = VENDOR_PREFERENCE.find((candidate) => vendors.includes(candidate) && FAMILY_VENDORS[entry.family]?.includes(candidate));
  return vendor ? ` on the ${vendor} GPU` : '';
}

/** The encoders of the machine's preferred vendor first (a discrete GPU over an integrated one), else in ENCODER_PROFILES order. */
function rankByVendor(entries: readonly EncoderProfile[], vendors: readonly GpuVendor[]): EncoderProfile[] {
  const present = VENDOR_PREFERENCE.filter((vendor) => vendors.includes(vendor));
  const rank = (entry: EncoderProfile) => {
    const index = present.findIndex((vendor) => FAMILY_VENDORS[entry.family]?.includes(vendor));
    return index < 0 ? present.length : index;
  };
  return [...entries].sort((a, b) => rank(a) - rank(b));
}

interface PicturePath {
  filters: string[];
  /** The frames reach the encoder in GPU memory: no `-pix_fmt` conversion on the CPU. */
  gpuFrames: boolean;
  reason: string;
}

/**
 * The filters between grab and encoder. ddagrab gives Direct3D 11 textures: NVENC and AMF take them
 * as they are, Quick Sync after mapping them to its own frames (and scales them there); a CPU encoder
 * needs them downloaded. x11grab gives CPU frames: VAAPI uploads them and scales on the GPU. Where a
 * GPU scaler is missing, or the display's shape differs from the recording's (black bars need `pad`),
 * the picture is scaled on the CPU.
 */
function picturePath(
  grabber: PlannedGrabber,
  entry: EncoderProfile,
  request: CapturePlanRequest,
  display: DetectedDisplay | undefined,
): PicturePath {
  const { width, height } = request.settings;
  const target = width && height ? { width, height } : undefined;
  const scaled = target !== undefined && (!display || display.width !== target.width || display.height !== target.height);
  const sameShape =
    target !== undefined &&
    display !== undefined &&
    Math.abs(display.width * target.height - display.height * target.width) <= display.height;
  const size = target ? `${target.width}x${target.height}` : '';
  const fit = target && scaled ? [fitFilter(target.width, target.height)] : [];
  const gpuScaler = (name: string) => scaled && sameShape && request.build.filters.has(name);
  const cpuScaling = scaled ? `; scaled to ${size} on the CPU` : '';
  if (grabber === 'ddagrab') {
    if (!entry.hardware)
      return {
        filters: [...DOWNLOAD_FILTERS, ...fit],
        gpuFrames: false,
        reason: `path: frames copied from the GPU (hwdownload) for the CPU encoder${cpuScaling}`,
      };
    if (entry.family === 'qsv' && (!scaled || gpuScaler('scale_qsv'))) {
      const scale = scaled ? [`scale_qsv=w=${target!.width}:h=${target!.height}`] : [];
      return {
        filters: ['hwmap=derive_device=qsv', 'format=qsv', ...scale],
        gpuFrames: true,
        reason: `path: frames mapped to Quick Sync on the GPU${scaled ? `, scaled to ${size} there` : ''}; no copy to the CPU`,
      };
    }
    if (!scaled)
      return { filters: [], gpuFrames: true, reason: `path: Direct3D 11 frames straight into ${entry.friendlyName}; no copy to the CPU` };
    return {
      filters: [...DOWNLOAD_FILTERS, ...fit],
      gpuFrames: false,
      reason: `path: frames copied to the CPU (hwdownload) to be scaled to ${size}: no GPU scaler here for this display's size; recording at the display's size keeps them on the GPU`,
    };
  }
  if (entry.family === 'vaapi') {
    if (!scaled || gpuScaler('scale_vaapi')) {
      const scale = scaled ? `w=${target!.width}:h=${target!.height}:` : '';
      return {
        filters: ['hwupload', `scale_vaapi=${scale}format=nv12`],
        gpuFrames: true,
        reason: `path: frames uploaded to the GPU (hwupload), converted${scaled ? ` and scaled to ${size}` : ''} there (scale_vaapi)`,
      };
    }
    return {
      filters: [...fit, 'format=nv12', 'hwupload'],
      gpuFrames: true,
      reason: `path: scaled to ${size} on the CPU, then uploaded to the GPU (hwupload)`,
    };
  }
  return { filters: fit, gpuFrames: false, reason: `path: CPU frames into the encoder${cpuScaling}` };
}

/**
 * ddagrab as a lavfi source. `output_idx` counts the desktop's outputs as DXGI enumerates them; the
 * displays' detection order (Screen.AllScreens) is taken for it, which matches on usual set-ups.
 */
function ddagrabArgs(frameRate: number, display: DetectedDisplay | undefined, displays: readonly DetectedDisplay[]): string[] {
  const output = display ? Math.max(0, displays.indexOf(display)) : 0;
  return ['-f', 'lavfi', '-i', `ddagrab=output_idx=${output}:framerate=${frameRate}:draw_mouse=1`];
}
