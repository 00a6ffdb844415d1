// Where the picture and sound of a recording come from, as ffmpeg inputs: the screen (x11grab,
// gdigrab, avfoundation) with the chosen audio devices, or `synthetic` (test pattern + tone),
// which runs anywhere, so the service records headless and in CI.
import { inject, injectable, type InjectionToken } from 'tsyringe';
import type { AudioBackend, AudioDevices, DetectedAudioDevice } from '../platform/audio-devices.js';
import { NO_AUDIO_DEVICES } from '../platform/audio-devices.js';
import { currentEnvironment, type Environment } from '../platform/data-folders.js';
import { findDisplay, type DetectedDisplay } from '../platform/displays.js';
import type { DeviceSetting, Display } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import type { CapturePlan, CapturePlanRequest, NoScreenCapture } from './capture-plan.js';
import { fileInput } from './file-input.js';
import type { VideoEncoderSettings } from './video-encoder.js';

export interface CaptureFormat {
  width: number;
  height: number;
  frameRate: number;
}

/** What a recording asks for: the target format plus the capture settings. */
export interface CaptureRequest extends CaptureFormat {
  /** `settings.selectedDisplay`; null or unknown → the primary display. */
  display?: Display | null;
  /** `settings.inputDevices` (microphones) with their volumes. */
  inputDevices?: readonly DeviceSetting[];
  /** `settings.outputDevices` (what the speakers play) with their volumes. */
  outputDevices?: readonly DeviceSetting[];
  /** A game's `volumeOverride`: scales what the output devices play (also the default output's). */
  outputVolume?: number;
  /** `settings.enableSeparateAudioTracks`: track 0 the mix, then one track per device, even for one device (two or more always get theirs). */
  separateAudioTracks?: boolean;
  /** The recording's video settings at its output size: a screen source plans its grab and encode from them (`planCapture`). */
  encoding?: VideoEncoderSettings;
}

export interface AudioTrack {
  /** `-map` specifier: an input stream (`1:a`) or a filter output (`[mix]`). */
  map: string;
  /** Title of the track: `Full Mix`, then the device names. */
  name: string;
}

export interface CaptureInputs {
  /** ffmpeg input options and `-i` arguments, in order, then the `-filter_complex` the tracks need. */
  args: string[];
  /** `-map` specifier of the picture, e.g. `0:v`. */
  video: string;
  /** A filter the picture needs in the encode, before it is scaled (the test pattern's wall-clock timestamps). */
  videoFilter?: string;
  /** The picture is the flat test pattern: the encoder takes its cheapest preset, which costs least on it. */
  flatPicture?: boolean;
  /** Size of the captured picture when known; the encoder scales it to the target format. */
  captureSize?: { width: number; height: number };
  /** The audio tracks in output order, never empty (silence when no device can be heard); track 0 is the full mix. */
  audioTracks: AudioTrack[];
  /** The planned picture path (grab, filters, encoder) the encode takes; absent: the settings' encoder as it is (the test pattern). */
  plan?: CapturePlan;
}

export interface CaptureSource {
  /** Short name for logs: `synthetic`, `x11grab`, … */
  readonly name: string;
  /** Inputs that deliver the picture and sound in real time. */
  inputs(request: CaptureRequest): CaptureInputs;
  /** The picture path a recording with `request.encoding` takes; undefined where nothing is planned (the test pattern). */
  plan?(request: CaptureRequest): CapturePlan | undefined;
}

/** Plans a recording's picture path from this machine's facts (`MachineCapabilities`). */
export type CapturePlanner = (request: Pick<CapturePlanRequest, 'settings' | 'display'>) => CapturePlan | NoScreenCapture;

export const TONE_FREQUENCY_HZ = 440;
export const AUDIO_SAMPLE_RATE = 48_000;
export const FULL_MIX_TRACK = 'Full Mix';

const SILENCE_INPUT = ['-f', 'lavfi', '-i', `anullsrc=channel_layout=stereo:sample_rate=${AUDIO_SAMPLE_RATE}`];

/** Frames a live picture source may queue for the encoder: each one waiting there is a frame late. */
const LIVE_QUEUE_FRAMES = 2;
/** Behind the clock by more than this, the test pattern starts its pacing afresh instead of catching up in a burst. */
const LIVE_RESYNC_SECONDS = 0.25;

/** The test pattern's background: a flat slate blue. */
const PATTERN_BACKGROUND = '0x203040';
/** The moving square's side, as a share of the picture's height. */
const PATTERN_SQUARE_SHARE = 1 / 9;
/** Seconds the square takes to cross the picture. */
const PATTERN_CROSSING_SECONDS = 4;

/**
 * A test pattern that behaves like a screen grab: at most `frameRate` frames a second, paced by the
 * wall clock (`realtime`), and stamped with the wall clock as each frame is encoded
 * (`WALL_CLOCK_TIMESTAMPS`). So an encode that cannot keep up misses frames, as with a real capture,
 * instead of falling behind real time (with `-re`, frame n was stamped n/rate whenever it was
 * encoded: a slow encode made a file shorter than the time recorded, and a crash lost the difference).
 *
 * It is cheap to make and to encode, so tests and headless users do not pay a full-size encode of a
 * detailed picture: one flat frame made once and repeated (`loop`), already in the encoder's pixel
 * format, with a white square moving across it, so every frame still differs from the last. At
 * 1080p60 the whole recording's ffmpeg takes well under half a core (testsrc2 took more than one).
 */
export function liveTestPattern(width: number, height: number, frameRate: number): string[] {
  const square = Math.max(2, Math.round((height * PATTERN_SQUARE_SHARE) / 2) * 2);
  const step = Math.max(1, Math.round((width - square) / (frameRate * PATTERN_CROSSING_SECONDS)));
  const background =
    `color=c=${PATTERN_BACKGROUND}:size=${width}x${height}:rate=${frameRate},format=yuv420p,` +
    `trim=end_frame=1,loop=loop=-1:size=1:start=0,setpts=N/(${frameRate}*TB)`;
  const moving = `overlay=x='mod(n*${step},${Math.max(1, width - square)})':y=${Math.floor((height - square) / 4) * 2}:eval=frame:format=yuv420`;
  return [
    '-thread_queue_size',
    String(LIVE_QUEUE_FRAMES),
    '-f',
    'lavfi',
    '-i',
    `${background}[background];color=c=white:size=${square}x${square}:rate=${frameRate}[square];` +
      `[background][square]${moving},realtime=limit=${LIVE_RESYNC_SECONDS}`,
  ];
}

/**
 * Timestamps from the wall clock, taken where the encode's filters run: frames made before the encode
 * got going (ffmpeg reads a few while it opens the input) all land at its start, not a start-up's
 * length before it.
 */
export const WALL_CLOCK_TIMESTAMPS = 'setpts=(RTCTIME-RTCSTART)/(TB*1000000)';

/** A capture time (wall clock, µs) as seconds since the encode started (RTCSTART: when its filters were set up). */
const SINCE_ENCODE_START = 'PTS-RTCSTART/(TB*1000000)';

/**
 * Picture and sound lined up by when they were captured, where every input stamps with the wall clock
 * (x11grab: when the frame was grabbed; PulseAudio: when the sound was heard, the time it is read
 * minus the device's latency). Without `-copyts` ffmpeg starts each input at its own first timestamp:
 * a device opened before the screen (PulseAudio takes up to 2 s, and ffmpeg reads nothing until all
 * inputs are open) played late by the time the inputs after it took to open (measured: the
 * microphone 0.3–1.4 s). With the stamps kept, the picture and each device count from the moment the
 * encode starts, right after the screen opened: a device's sound from before it is dropped, a device
 * that was not yet heard is padded with silence (`aresample`), so every track starts with the picture
 * (a fragmented MP4 has no edit lists to start a track later) and stays with it. The picture's and the
 * sound's filter graphs each take their own RTCSTART, normally close together (the tracks land within
 * 0.05 s of the picture), but up to 0.8 s apart when ffmpeg is starved of CPU at the start (docs/protocol.md, "Audio tracks").
 */
export const WALL_CLOCK_SYNC = {
  global: ['-copyts'],
  video: `setpts=${SINCE_ENCODE_START}`,
  audio: `asetpts=${SINCE_ENCODE_START},aresample=async=1:first_pts=0`,
} as const;

/**
 * A test pattern (`liveTestPattern`) and a 440 Hz tone, paced in real time (`-re`; sound is
 * cheap to encode, it keeps up). With a video file (`KEYFRAME_SYNTHETIC_VIDEO`), that video instead
 * of the pattern, from its start at every recording and looped: end-to-end tests of on-screen text
 * draw their messages into it.
 */
export class SyntheticCaptureSource implements CaptureSource {
  readonly name = 'synthetic';

  constructor(private readonly videoFile?: string) {}

  inputs({ width, height, frameRate, separateAudioTracks }: CaptureRequest): CaptureInputs {
    const picture = this.videoFile
      ? ['-re', '-stream_loop', '-1', ...fileInput(this.videoFile)]
      : liveTestPattern(width, height, frameRate);
    const args = [...picture, '-re', '-f', 'lavfi', '-i', `sine=frequency=${TONE_FREQUENCY_HZ}:sample_rate=${AUDIO_SAMPLE_RATE}`];
    // A video file's size is its own (not probed): the recording scales it to the requested format.
    // It keeps its own timestamps too, paced by `-re`.
    const pattern = this.videoFile ? {} : { captureSize: { width, height }, videoFilter: WALL_CLOCK_TIMESTAMPS, flatPicture: true };
    if (!separateAudioTracks) {
      return { args, video: '0:v', ...pattern, audioTracks: [{ map: '1:a', name: FULL_MIX_TRACK }] };
    }
    // The tone stands in for one device, so multi-track files can be tested without sound hardware.
    return {
      args: [...args, '-filter_complex', '[1:a]asplit=2[mix][tone]'],
      video: '0:v',
      ...pattern,
      audioTracks: [
        { map: '[mix]', name: FULL_MIX_TRACK },
        { map: '[tone]', name: 'Test Tone' },
      ],
    };
  }
}

export type ScreenGrabber = 'x11grab' | 'gdigrab' | 'avfoundation';
export const SCREEN_GRABBERS: readonly ScreenGrabber[] = ['x11grab', 'gdigrab', 'avfoundation'];
const PLATFORM_GRABBER: Partial<Record<NodeJS.Platform, ScreenGrabber>> = {
  linux: 'x11grab',
  freebsd: 'x11grab',
  win32: 'gdigrab',
  darwin: 'avfoundation',
};
const GRABBER_AUDIO: Record<ScreenGrabber, AudioBackend> = { x11grab: 'pulse', gdigrab: 'dshow', avfoundation: 'avfoundation' };

export interface ScreenCaptureContext {
  grabber: ScreenGrabber;
  displays: readonly DetectedDisplay[];
  audio: AudioDevices;
  /** The ffmpeg input that opens `audio`'s devices; undefined records a silent track. */
  audioInput?: AudioBackend;
  /** `$DISPLAY`, for x11grab. */
  x11Display?: string;
  /** Without one (tests), the grabber's own input and the settings' encoder. */
  planCapture?: CapturePlanner;
  logger?: Logger;
}

/** The display the settings select (else the primary one) at its own size, plus audio devices. */
export class ScreenCaptureSource implements CaptureSource {
  readonly name: string;

  constructor(private readonly context: ScreenCaptureContext) {
    this.name = context.grabber;
  }

  inputs(request: CaptureRequest): CaptureInputs {
    const { grabber, audioInput } = this.context;
    const display = findDisplay(this.context.displays, request.display);
    const picture = this.plan(request);
    const args = picture?.grabArgs ?? screenInputArgs(grabber, request.frameRate, display, this.context.displays, this.context.x11Display);
    const { devices, missing } = audioInput ? chooseAudioDevices(request, this.context.audio) : { devices: [], missing: [] };
    if (missing.length > 0)
      this.context.logger?.warn('audio devices in the settings are not connected: recording without them', { missing });
    if (devices.length === 0) {
      return {
        args: [...args, ...SILENCE_INPUT],
        video: '0:v',
        ...size(display),
        audioTracks: [{ map: '1:a', name: FULL_MIX_TRACK }],
        ...(picture ? { plan: picture } : {}),
      };
    }
    // Two devices mixed cannot be told apart later: each gets its own track too, so clips can mute or balance them.
    const separate = devices.length > 1 || (request.separateAudioTracks ?? false);
    const sync = grabber === 'x11grab' && audioInput === 'pulse' ? WALL_CLOCK_SYNC : undefined;
    const plan = audioTrackPlan(0, devices, separate, { reversed: true, ...(sync ? { deviceFilter: sync.audio } : {}) });
    // The devices open before the screen, in reverse order (the speakers last). ffmpeg reads no input
    // before all are open (a PulseAudio input takes up to 2 s to open, one after the other), so the
    // screen, opened last, captures without a gap from its first frame. Where the inputs stamp with the
    // wall clock (x11grab and PulseAudio), every track is lined up with the picture by those stamps
    // (`WALL_CLOCK_SYNC`); elsewhere ffmpeg starts each input at its own first timestamp and a device
    // plays late by the opening time of the inputs after it (the speakers, opened last, least).
    return {
      args: [
        ...(sync ? sync.global : []),
        ...devices.toReversed().flatMap((device) => audioInputArgs(audioInput!, device.source)),
        ...args,
        ...(plan.filter ? ['-filter_complex', plan.filter] : []),
      ],
      video: `${devices.length}:v`,
      ...(sync ? { videoFilter: sync.video } : {}),
      ...size(display),
      audioTracks: plan.tracks,
      ...(picture ? { plan: picture } : {}),
    };
  }

  /** The plan, when it grabs with this source's grabber (ddagrab, where the build has it, instead of gdigrab). */
  plan(request: CaptureRequest): CapturePlan | undefined {
    const { grabber, planCapture } = this.context;
    if (!request.encoding || !planCapture) return undefined;
    const plan = planCapture({ settings: request.encoding, display: request.display ?? null });
    if (plan.grabber === null) return undefined;
    return plan.grabber === grabber || (plan.grabber === 'ddagrab' && grabber === 'gdigrab') ? plan : undefined;
  }
}

const size = (display: DetectedDisplay | undefined) => (display ? { captureSize: { width: display.width, height: display.height } } : {});

/** The video input: the display's rectangle of the desktop, at its own size. */
export function screenInputArgs(
  grabber: ScreenGrabber,
  frameRate: number,
  display: DetectedDisplay | undefined,
  displays: readonly DetectedDisplay[] = [],
  x11Display = ':0',
): string[] {
  const rate = String(frameRate);
  // A quarter second of frames absorbs the encoder's uneven pace (a keyframe costs more); more would
  // only hold frames back when it cannot keep up, and a crash loses what is held back.
  const queue = ['-thread_queue_size', String(Math.max(LIVE_QUEUE_FRAMES, Math.ceil(frameRate / 4)))];
  const videoSize = display ? ['-video_size', `${display.width}x${display.height}`] : [];
  switch (grabber) {
    case 'x11grab':
      return [
        ...queue,
        '-f',
        'x11grab',
        '-framerate',
        rate,
        ...videoSize,
        '-draw_mouse',
        '1',
        '-i',
        `${x11Screen(x11Display)}${display ? `+${display.x},${display.y}` : ''}`,
      ];
    case 'gdigrab':
      return [
        ...queue,
        '-f',
        'gdigrab',
        '-framerate',
        rate,
        ...(display ? ['-offset_x', String(display.x), '-offset_y', String(display.y)] : []),
        ...videoSize,
        '-draw_mouse',
        '1',
        '-i',
        'desktop',
      ];
    case 'avfoundation': {
      // AVFoundation numbers screens in the order system_profiler lists them.
      const screen = display ? Math.max(0, displays.indexOf(display)) : 0;
      return [...queue, '-f', 'avfoundation', '-framerate', rate, '-capture_cursor', '1', '-i', `Capture screen ${screen}`];
    }
  }
}

/** `:1` → `:1.0`; a display that names its screen is kept. */
export function x11Screen(display: string): string {
  return /\.\d+$/.test(display) ? display : `${display}.0`;
}

export function audioInputArgs(backend: AudioBackend, source: string): string[] {
  switch (backend) {
    case 'pulse':
      return ['-thread_queue_size', '1024', '-f', 'pulse', '-sample_rate', String(AUDIO_SAMPLE_RATE), '-channels', '2', '-i', source];
    case 'dshow':
      return ['-thread_queue_size', '1024', '-f', 'dshow', '-i', `audio=${source}`];
    case 'avfoundation':
      return ['-thread_queue_size', '1024', '-f', 'avfoundation', '-i', `:${source}`];
  }
}

export interface ChosenAudioDevice {
  name: string;
  /** What the audio input opens (`DetectedAudioDevice.source`). */
  source: string;
  volume: number;
}

/** A device setting's `id` for the system's default device; the settings' `name` of it is not shown. */
const SYSTEM_DEFAULT: DeviceSetting = { id: 'default', name: '', volume: 1 };

/**
 * The connected devices the settings select (`id` `default` = the system default), outputs first.
 * When the settings select none at all, the default output and the default microphone: recordings
 * carry the game's sound and the player's voice (as OBS's defaults do), each on its own track.
 * `outputVolume` scales every output. A `default` that finds no device of its kind is not missing:
 * the machine has none (no microphone), there is nothing to warn about.
 */
export function chooseAudioDevices(
  request: Pick<CaptureRequest, 'inputDevices' | 'outputDevices' | 'outputVolume'>,
  audio: AudioDevices,
): { devices: ChosenAudioDevice[]; missing: string[] } {
  const nothingChosen = !request.inputDevices?.length && !request.outputDevices?.length;
  const outputs = nothingChosen ? [SYSTEM_DEFAULT] : (request.outputDevices ?? []);
  const inputs = nothingChosen ? [SYSTEM_DEFAULT] : (request.inputDevices ?? []);
  const missing: string[] = [];
  const devices: ChosenAudioDevice[] = [];
  const add = (device: DetectedAudioDevice | undefined, setting: DeviceSetting, scale: number) => {
    if (!device) {
      if (setting.id !== SYSTEM_DEFAULT.id) missing.push(setting.name || setting.id);
      return;
    }
    if (devices.some((known) => known.source === device.source)) return;
    devices.push({
      name: setting.id === SYSTEM_DEFAULT.id || !setting.name ? device.name : setting.name,
      source: device.source,
      volume: setting.volume * scale,
    });
  };
  const find = (list: readonly DetectedAudioDevice[], setting: DeviceSetting) =>
    setting.id === SYSTEM_DEFAULT.id
      ? (list.find((device) => device.isDefault) ?? list[0])
      : list.find((device) => device.id === setting.id);
  for (const setting of outputs) add(find(audio.outputs, setting), setting, request.outputVolume ?? 1);
  for (const setting of inputs) add(find(audio.inputs, setting), setting, 1);
  return { devices, missing };
}

/**
 * Track 0 is the full mix (each device at its volume, summed); with separate tracks, one track per
 * device follows (also at its volume). Inputs `firstInput`… are the devices, in order, or in reverse
 * order with `reversed`; `deviceFilter` goes on each device's sound, before its volume. One device at
 * full volume without separate tracks or a device filter needs no filter at all.
 */
export function audioTrackPlan(
  firstInput: number,
  devices: readonly Pick<ChosenAudioDevice, 'name' | 'volume'>[],
  separate: boolean,
  { reversed = false, deviceFilter }: { reversed?: boolean; deviceFilter?: string } = {},
): { filter?: string; tracks: AudioTrack[] } {
  if (devices.length === 0) throw new Error('audioTrackPlan needs at least one device');
  if (devices.length === 1 && devices[0]!.volume === 1 && !separate && !deviceFilter) {
    return { tracks: [{ map: `${firstInput}:a`, name: FULL_MIX_TRACK }] };
  }
  const input = (index: number) => firstInput + (reversed ? devices.length - 1 - index : index);
  const chains = devices.map((device, index) => {
    const volume = device.volume === 1 ? '' : `,volume=${formatVolume(device.volume)}`;
    const outputs = separate ? `,asplit=2[m${index}][t${index}]` : `[m${index}]`;
    return `[${input(index)}:a]aformat=sample_rates=${AUDIO_SAMPLE_RATE}:channel_layouts=stereo${deviceFilter ? `,${deviceFilter}` : ''}${volume}${outputs}`;
  });
  const mixInputs = devices.map((_, index) => `[m${index}]`).join('');
  // amix divides by the number of inputs; scaling back makes the mix the plain sum, as OBS does.
  const mix =
    devices.length === 1
      ? `${mixInputs}anull[mix]`
      : `${mixInputs}amix=inputs=${devices.length}:duration=longest:dropout_transition=0,volume=${devices.length}[mix]`;
  return {
    filter: [...chains, mix].join(';'),
    tracks: [
      { map: '[mix]', name: FULL_MIX_TRACK },
      ...(separate ? devices.map((device, index) => ({ map: `[t${index}]`, name: device.name })) : []),
    ],
  };
}

const formatVolume = (volume: number) => String(Math.round(Math.max(0, volume) * 1000) / 1000);

/** What selection knows about the capture engine and the machine. */
export interface CaptureCapabilities {
  /** The engine's capture inputs (`EngineProbe.inputFormats`). */
  inputFormats: ReadonlySet<string>;
  displays: readonly DetectedDisplay[];
  audio: AudioDevices;
  /** Plans the picture path of a screen recording; absent until the build was probed. */
  planCapture?: CapturePlanner;
}

/** Who knows the capabilities: the machine's capabilities service, registered under `CAPTURE_CAPABILITIES`. */
export interface CaptureCapabilitiesProvider {
  /** Undefined while the ffmpeg build is not probed (or there is none). */
  captureCapabilities(): CaptureCapabilities | undefined;
  /** The height of the tallest display (1080 until displays are detected): recordings and presets are capped at it. */
  readonly maxDisplayHeight: number;
}
export const CAPTURE_CAPABILITIES: InjectionToken<CaptureCapabilitiesProvider> = Symbol('CaptureCapabilitiesProvider');

export interface CaptureChoice {
  source: CaptureSource;
  /** Set when screen capture was not possible and synthetic was taken instead. */
  fallbackReason?: string;
  /** Worth a log line: no audio devices, a Wayland session. */
  notes: string[];
}

/**
 * `KEYFRAME_CAPTURE=synthetic|x11grab|gdigrab|avfoundation` forces a source. Otherwise the
 * platform's screen grabber when there is a screen and the engine has the input (Linux: DISPLAY
 * set and x11grab), else synthetic with the reason. Audio comes from the platform's audio input
 * when devices were found and the engine can open them, else the track is silent.
 */
export function chooseCaptureSource(
  environment: Environment = currentEnvironment(),
  capabilities?: CaptureCapabilities,
  logger?: Logger,
): CaptureChoice {
  const variables = environment.variables;
  const requested = variables.KEYFRAME_CAPTURE?.trim().toLowerCase() || undefined;
  const synthetic = (fallbackReason?: string): CaptureChoice => ({
    source: new SyntheticCaptureSource(variables.KEYFRAME_SYNTHETIC_VIDEO?.trim() || undefined),
    notes: [],
    ...(fallbackReason ? { fallbackReason } : {}),
  });
  if (requested === 'synthetic') return synthetic();
  if (requested && !SCREEN_GRABBERS.includes(requested as ScreenGrabber)) {
    return synthetic(`KEYFRAME_CAPTURE=${requested} is not a capture source this version knows (synthetic, ${SCREEN_GRABBERS.join(', ')})`);
  }
  const grabber = (requested as ScreenGrabber | undefined) ?? PLATFORM_GRABBER[environment.platform];
  if (!grabber) return synthetic(`screen capture on ${environment.platform} is not supported`);
  if (!requested) {
    if (grabber === 'x11grab' && !variables.DISPLAY) return synthetic('there is no X display (DISPLAY is not set)');
    if (!capabilities) return synthetic('the capture engine is not ready');
    if (!capabilities.inputFormats.has(grabber)) return synthetic(`this ffmpeg build has no ${grabber} input`);
  }
  const notes: string[] = [];
  const wantedAudio = GRABBER_AUDIO[grabber];
  const audio = capabilities?.audio ?? NO_AUDIO_DEVICES;
  let audioInput: AudioBackend | undefined;
  if (audio.backend !== wantedAudio) {
    notes.push(`no ${wantedAudio} audio devices were found: recordings get a silent audio track`);
  } else if (!capabilities?.inputFormats.has(wantedAudio)) {
    notes.push(`this ffmpeg build cannot record ${wantedAudio} audio: recordings get a silent audio track`);
  } else {
    audioInput = wantedAudio;
  }
  if (grabber === 'x11grab' && variables.WAYLAND_DISPLAY) notes.push('Wayland session: x11grab sees only X11 (XWayland) windows');
  return {
    source: new ScreenCaptureSource({
      grabber,
      displays: capabilities?.displays ?? [],
      audio,
      x11Display: variables.DISPLAY ?? ':0',
      ...(capabilities?.planCapture ? { planCapture: capabilities.planCapture } : {}),
      ...(audioInput ? { audioInput } : {}),
      ...(logger ? { logger } : {}),
    }),
    notes,
  };
}

@injectable()
export class CaptureSources {
  private readonly logger: Logger;
  private readonly reported = new Set<string>();

  /** Without capabilities (tests), the screen is never chosen unless KEYFRAME_CAPTURE forces it. */
  constructor(
    logger: Logger,
    @inject(CAPTURE_CAPABILITIES) private readonly machine?: CaptureCapabilitiesProvider,
  ) {
    this.logger = logger.child('capture');
  }

  /** The source for the next recording. */
  select(environment: Environment = currentEnvironment()): CaptureSource {
    const choice = chooseCaptureSource(environment, this.machine?.captureCapabilities(), this.logger);
    // Said once per service run: the same reason at every recording is noise.
    if (choice.fallbackReason && this.once(choice.fallbackReason)) {
      this.logger.warn('recording a test pattern instead of the screen', { reason: choice.fallbackReason });
    }
    for (const note of choice.notes) if (this.once(note)) this.logger.info(note);
    return choice.source;
  }

  private once(text: string): boolean {
    if (this.reported.has(text)) return false;
    this.reported.add(text);
    return true;
  }
}
