// The capture engine is ffmpeg: found (or, where configured, downloaded) and probed once at
// start-up for its encoders and capture devices, together with this machine's displays, audio
// devices and GPU, all of which go into State.
import { realpathSync } from 'node:fs';
import { chmod, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject, injectable } from 'tsyringe';
import { detectAudioDevices, NO_AUDIO_DEVICES, toWireAudioDevice, type AudioDevices } from '../platform/audio-devices.js';
import { currentEnvironment, type Environment } from '../platform/data-folders.js';
import { detectDisplays, maxDisplayHeight, toWireDisplay, type DetectedDisplay } from '../platform/displays.js';
import { detectGpu, type GpuInfo } from '../platform/gpu.js';
import { systemCommandRunner, type CommandRunner } from '../platform/system-commands.js';
import type { CaptureEngineVersion, Codec, State } from '../protocol/index.js';
import { ServiceOptions } from '../service-options.js';
import { Notifier } from '../services/notifier.js';
import { SettingsStore } from '../services/settings-store.js';
import { StateStore } from '../services/state-store.js';
import { downloadToFile, sameDigest } from '../support/download.js';
import { Logger } from '../support/logger.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { findOnPath, locateTool, type LocatedTool, type ToolSource } from './ffmpeg-toolbox.js';
import { ENCODER_PROFILES, encoderArgs, toCodec, type EncoderProfile, type VideoEncoderSettings } from './video-encoder.js';

export type EngineSource = ToolSource | 'downloaded';

export interface EngineBinary {
  path: string;
  source: EngineSource;
  /** `5.1.9-0+deb12u1`, `N-47683-g0e8eb07980-static`. */
  version: string;
  /** The capture inputs `-devices` lists, when it was asked. */
  inputFormats?: readonly string[];
}

/** The screen and sound inputs a recording on each platform opens. */
const PLATFORM_CAPTURE_INPUTS: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: ['x11grab', 'pulse'], freebsd: ['x11grab', 'pulse'], win32: ['gdigrab', 'dshow'], darwin: ['avfoundation'],
};

/** What a recording runs; `ffprobe` reads the result. */
export interface EngineTools {
  ffmpeg: EngineBinary;
  ffprobe: LocatedTool;
}

export interface EncoderListing {
  name: string;
  type: 'video' | 'audio' | 'subtitle';
  experimental: boolean;
  description: string;
}

/** What the ffmpeg build can do, from `-version`, `-encoders`, `-devices`, `-filters`, `-hwaccels`. */
export interface EngineProbe {
  version: string;
  encoders: EncoderListing[];
  /**
   * Capture inputs it can open: the demuxing devices (`x11grab`, `pulse`, `alsa`, `gdigrab`,
   * `dshow`, `avfoundation`, `lavfi`, …) plus `ddagrab`, which is a lavfi source filter.
   */
  inputFormats: ReadonlySet<string>;
  filters: ReadonlySet<string>;
  hwaccels: string[];
}

/** Everything State tells about this machine's capture hardware. */
export interface SystemDevices {
  displays: DetectedDisplay[];
  audio: AudioDevices;
  gpu: GpuInfo;
}

/** The environment the engine looks at; tests register their own instance. */
export class CaptureEngineConfig {
  environment: Environment = currentEnvironment();
  /** How the locator loads `@ffmpeg-installer/ffmpeg` & co.; default: `require`. */
  loadPackage?: (specifier: string) => unknown;
  /** Runs ffmpeg probes and OS tools; default: `systemCommandRunner`. */
  run?: CommandRunner;
  /** Root of sysfs for GPU detection on Linux. */
  sysfsRoot?: string;
}

export class CaptureEngineUnavailableError extends Error {
  constructor(readonly title: string, readonly subtitle: string, description: string) {
    super(description);
    this.name = 'CaptureEngineUnavailableError';
  }
}

const DOWNLOAD_FOLDER = 'capture-engine';

@injectable()
export class CaptureEngine {
  private starting: Promise<void> | undefined;
  private engineTools: EngineTools | undefined;
  private failure: CaptureEngineUnavailableError | undefined;
  private engineProbe: EngineProbe | undefined;
  private usableCodecs: Codec[] = [];
  private devices: SystemDevices = { displays: [], audio: NO_AUDIO_DEVICES, gpu: { vendor: 'Unknown', computeCapability: 0 } };
  private readonly logger: Logger;
  private readonly run: CommandRunner;

  constructor(
    private readonly state: StateStore,
    private readonly notifier: Notifier,
    @inject(EVENT_SINK) private readonly events: EventSink,
    private readonly settings: SettingsStore,
    private readonly options: ServiceOptions,
    private readonly config: CaptureEngineConfig,
    logger: Logger,
  ) {
    this.logger = logger.child('capture-engine');
    this.run = config.run ?? systemCommandRunner(this.logger);
  }

  /**
   * Finds and probes ffmpeg and detects displays, audio devices and the GPU, once; later calls
   * return the same promise, so `await engine.start()` also waits for it. Never rejects: a missing
   * engine is a dialog for the user, and State's `hasLoadedCaptureEngine` becomes true either way.
   */
  start(): Promise<void> {
    this.starting ??= this.load();
    return this.starting;
  }

  /** True once the engine was probed successfully. */
  get available(): boolean {
    return this.engineTools !== undefined;
  }

  /** ffmpeg and ffprobe to run; throws `CaptureEngineUnavailableError` (its message says how to fix it). */
  tools(): EngineTools {
    if (this.engineTools) return this.engineTools;
    throw this.failure ?? new CaptureEngineUnavailableError('Recording is not available', 'Capture engine starting',
      'The capture engine is still being set up: try again in a moment.');
  }

  get probe(): EngineProbe | undefined {
    return this.engineProbe;
  }

  /** The video encoders offered to the user (State `codecs`): known, listed by the build, and working here. */
  get codecs(): readonly Codec[] {
    return this.usableCodecs;
  }

  get system(): Readonly<SystemDevices> {
    return this.devices;
  }

  hasInput(format: string): boolean {
    return this.engineProbe?.inputFormats.has(format) ?? false;
  }

  /** Detects displays and audio devices again (after a device change) and updates State. */
  async refreshDevices(): Promise<void> {
    const [displays, audio] = await Promise.all([
      this.tolerant('displays', detectDisplays(this.run, this.config.environment), this.devices.displays),
      this.tolerant('audio devices', detectAudioDevices(this.run, this.config.environment, this.engineTools?.ffmpeg.path), this.devices.audio),
    ]);
    this.devices = { ...this.devices, displays, audio };
    this.publishDevices();
  }

  private async load(): Promise<void> {
    const startedAt = Date.now();
    const environment = this.config.environment;
    const displaysAndGpu = Promise.all([
      this.tolerant('displays', detectDisplays(this.run, environment), []),
      this.tolerant('GPU', detectGpu(this.run, environment, this.config.sysfsRoot === undefined ? {} : { sysfsRoot: this.config.sysfsRoot }),
        { vendor: 'Unknown' as const, computeCapability: 0 }),
    ]);
    let versions: CaptureEngineVersion[] = [];
    try {
      const found = await this.findEngines();
      const ffmpeg = this.chooseEngine(found);
      let ffprobe: LocatedTool;
      try {
        ffprobe = locateTool('ffprobe', this.locateOptions());
      } catch (error) {
        throw new CaptureEngineUnavailableError('Recording is not available', 'ffprobe not found', (error as Error).message);
      }
      versions = [ffmpeg, ...found.filter((engine) => engine !== ffmpeg)].map((engine) => ({
        version: engine.version, isBeta: false, supportsFrom: null, supportsTo: null, url: pathToFileURL(engine.path).href,
      }));
      this.engineProbe = await probeEngine(this.run, ffmpeg.path, ffmpeg.version);
      this.usableCodecs = await workingCodecs(this.run, ffmpeg.path, this.engineProbe, this.logger);
      this.engineTools = { ffmpeg, ffprobe };
      this.logger.info('capture engine ready', {
        ffmpeg: ffmpeg.path, source: ffmpeg.source, version: ffmpeg.version, ffprobe: ffprobe.path,
        codecs: this.usableCodecs.map((codec) => codec.internalEncoderId), inputs: [...this.engineProbe.inputFormats],
        alternatives: found.filter((engine) => engine !== ffmpeg).map((engine) => engine.path),
      });
    } catch (error) {
      this.failure = error instanceof CaptureEngineUnavailableError
        ? error
        : new CaptureEngineUnavailableError('Recording is not available', 'Capture engine error', `The capture engine could not be set up: ${(error as Error).message}`);
      this.logger.error('capture engine unavailable: recording is off', { error: this.failure.message });
      this.notifier.showModal({ title: this.failure.title, subtitle: this.failure.subtitle, description: this.failure.message, type: 'error' });
    }
    const [displays, gpu] = await displaysAndGpu;
    const audio = await this.tolerant('audio devices', detectAudioDevices(this.run, environment, this.engineTools?.ffmpeg.path), NO_AUDIO_DEVICES);
    this.devices = { displays, audio, gpu };
    this.logger.info('capture devices', {
      displays: displays.map((display) => `${display.deviceName} ${display.width}x${display.height}+${display.x}+${display.y}`),
      inputs: audio.inputs.map((device) => device.id), outputs: audio.outputs.map((device) => device.id),
      gpu: gpu.vendor, computeCapability: gpu.computeCapability, tookMs: Date.now() - startedAt,
    });
    this.publishDevices({
      codecs: [...this.usableCodecs],
      availableCaptureEngineVersions: versions,
      gpuVendor: gpu.vendor,
      gpuComputeCapability: gpu.computeCapability,
      hasLoadedCaptureEngine: true,
    });
  }

  /** Detection is best effort: a failure leaves that part empty instead of stopping start-up. */
  private tolerant<T>(what: string, detection: Promise<T>, fallback: T): Promise<T> {
    return detection.catch((error: unknown) => {
      this.logger.warn(`${what} could not be detected`, { error: (error as Error).message });
      return fallback;
    });
  }

  private publishDevices(extra: Partial<State> = {}): void {
    this.state.update({
      displays: this.devices.displays.map(toWireDisplay),
      maxDisplayHeight: maxDisplayHeight(this.devices.displays),
      inputDevices: this.devices.audio.inputs.map(toWireAudioDevice),
      outputDevices: this.devices.audio.outputs.map(toWireAudioDevice),
      ...extra,
    });
  }

  private locateOptions() {
    return { environment: this.config.environment, ...(this.config.loadPackage ? { loadPackage: this.config.loadPackage } : {}) };
  }

  /**
   * Every runnable ffmpeg, in the locator's order (FFMPEG_PATH, packages, PATH), then a downloaded
   * one; with none at all, the configured download.
   */
  private async findEngines(): Promise<EngineBinary[]> {
    const environment = this.config.environment;
    const candidates = engineCandidates(environment, this.config.loadPackage, this.downloadFolder);
    if (candidates.length === 0) candidates.push({ path: await this.download(), source: 'downloaded' });
    const engines = await Promise.all(candidates.map(async (candidate): Promise<EngineBinary | undefined> => {
      const [result, devices] = await Promise.all([
        this.run(candidate.path, ['-hide_banner', '-version']), this.run(candidate.path, ['-hide_banner', '-devices']),
      ]);
      const version = result?.code === 0 ? parseVersion(result.stdout) : undefined;
      if (!version) this.logger.warn('an ffmpeg was found but does not run', { path: candidate.path, error: result?.stderr.trim() ?? 'could not be started' });
      return version ? { ...candidate, version, inputFormats: parseInputDevices(devices?.stdout ?? '') } : undefined;
    }));
    const working = engines.filter((engine): engine is EngineBinary => engine !== undefined);
    if (working.length === 0) {
      throw new CaptureEngineUnavailableError('Recording is not available', 'Capture engine does not run',
        `ffmpeg was found (${candidates.map((candidate) => candidate.path).join(', ')}) but does not run on this machine. ${installAdvice(environment.platform)}`);
    }
    return working;
  }

  /**
   * The version the settings select (`selectedCaptureEngineVersion`), else the one `FFMPEG_PATH`
   * names, else the first that can capture this platform's screen and sound (the bundled Linux
   * build has no PulseAudio input, a distribution's ffmpeg has), else the first found.
   */
  private chooseEngine(engines: EngineBinary[]): EngineBinary {
    const selected = this.settings.current.selectedCaptureEngineVersion;
    const match = selected ? engines.find((engine) => engine.version === selected) : undefined;
    if (selected && !match) this.logger.warn('the selected capture engine version is not installed', { selected, found: engines.map((engine) => engine.version) });
    const wanted = PLATFORM_CAPTURE_INPUTS[this.config.environment.platform] ?? [];
    return match
      ?? engines.find((engine) => engine.source === 'environment')
      ?? engines.find((engine) => wanted.every((input) => engine.inputFormats?.includes(input)))
      ?? engines[0]!;
  }

  private get downloadFolder(): string {
    return path.join(this.options.dataFolder, DOWNLOAD_FOLDER);
  }

  private async download(): Promise<string> {
    const variables = this.config.environment.variables;
    const url = variables.KEYFRAME_CAPTURE_ENGINE_URL?.trim();
    const sha256 = variables.KEYFRAME_CAPTURE_ENGINE_SHA256?.trim();
    const advice = installAdvice(this.config.environment.platform);
    if (!url) {
      throw new CaptureEngineUnavailableError('Recording is not available', 'Capture engine not found',
        `Keyframe records with ffmpeg and found none (not in FFMPEG_PATH, not bundled, not on PATH). ${advice}`);
    }
    if (!sha256) {
      throw new CaptureEngineUnavailableError('Recording is not available', 'Capture engine not verified',
        `KEYFRAME_CAPTURE_ENGINE_URL is set but KEYFRAME_CAPTURE_ENGINE_SHA256 is not: Keyframe only runs a downloaded capture engine whose SHA-256 it can check. Set it, or: ${advice}`);
    }
    this.logger.info('downloading the capture engine', { url, folder: this.downloadFolder });
    try {
      const file = await downloadCaptureEngine({
        url, sha256, folder: this.downloadFolder, fileName: ffmpegFileName(this.config.environment.platform),
        onProgress: (progress) => this.events.send('CaptureEngineDownloadProgress', { progress, status: 'downloading' }),
      });
      this.logger.info('capture engine downloaded', { file });
      return file;
    } catch (error) {
      throw new CaptureEngineUnavailableError('Recording is not available', 'Capture engine download failed', `${(error as Error).message} ${advice}`);
    }
  }
}

const ffmpegFileName = (platform: NodeJS.Platform) => (platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg');

function installAdvice(platform: NodeJS.Platform): string {
  const install = platform === 'win32' ? 'install ffmpeg (winget install ffmpeg)'
    : platform === 'darwin' ? 'install ffmpeg (brew install ffmpeg)'
      : 'install ffmpeg with your package manager (sudo apt install ffmpeg, sudo dnf install ffmpeg)';
  return `To fix it, ${install}, or run npm install in the Keyframe folder to restore the bundled ffmpeg, or set FFMPEG_PATH to an ffmpeg executable; then restart Keyframe.`;
}

/** The runnable ffmpeg executables, deduplicated by real path, in the locator's order. */
export function engineCandidates(environment: Environment, loadPackage: ((specifier: string) => unknown) | undefined, downloadFolder: string): { path: string; source: EngineSource }[] {
  const skipPackages = () => { throw new Error('not asked'); };
  const attempt = (variables: NodeJS.ProcessEnv, load: ((specifier: string) => unknown) | undefined): LocatedTool | undefined => {
    try {
      return locateTool('ffmpeg', { environment: { ...environment, variables }, ...(load ? { loadPackage: load } : {}) });
    } catch {
      return undefined;
    }
  };
  const found: { path: string; source: EngineSource }[] = [];
  const add = (tool: { path: string; source: EngineSource } | undefined) => {
    if (!tool) return;
    const real = realPath(tool.path);
    if (!found.some((known) => realPath(known.path) === real)) found.push(tool);
  };
  const variable = environment.variables.FFMPEG_PATH;
  if (variable) add(attempt({ FFMPEG_PATH: variable }, skipPackages));
  add(attempt({}, loadPackage));
  const onPath = findOnPath('ffmpeg', environment);
  if (onPath) add({ path: onPath, source: 'path' });
  const downloaded = attempt({ FFMPEG_PATH: path.join(downloadFolder, ffmpegFileName(environment.platform)) }, skipPackages);
  if (downloaded) add({ path: downloaded.path, source: 'downloaded' });
  return found;
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * Runs the listings in parallel (`-version` only when the version is not known yet); throws when
 * the build does not answer `-encoders`.
 */
export async function probeEngine(run: CommandRunner, ffmpegPath: string, knownVersion?: string): Promise<EngineProbe> {
  const ask = (option: string) => run(ffmpegPath, ['-hide_banner', option]);
  const [version, encoders, devices, filters, hwaccels] = await Promise.all([
    knownVersion === undefined ? ask('-version') : undefined, ask('-encoders'), ask('-devices'), ask('-filters'), ask('-hwaccels'),
  ]);
  if (encoders?.code !== 0) throw new Error(`${ffmpegPath} -encoders failed: ${encoders?.stderr.trim() || 'it could not be started'}`);
  const filterNames = parseFilters(filters?.stdout ?? '');
  const inputFormats = new Set(parseInputDevices(devices?.stdout ?? ''));
  if (filterNames.has('ddagrab')) inputFormats.add('ddagrab');
  return {
    version: knownVersion ?? parseVersion(version?.stdout ?? '') ?? 'unknown',
    encoders: parseEncoders(encoders.stdout),
    inputFormats,
    filters: filterNames,
    hwaccels: parseHwaccels(hwaccels?.stdout ?? ''),
  };
}

/** `ffmpeg version 5.1.9-0+deb12u1 Copyright …` → `5.1.9-0+deb12u1`. */
export function parseVersion(text: string): string | undefined {
  return /ffmpeg version (\S+)/.exec(text)?.[1];
}

/** `-encoders` rows: ` V....D libx264   libx264 H.264 …` (six flag columns: type, F, S, X, B, D). */
export function parseEncoders(text: string): EncoderListing[] {
  const types = { V: 'video', A: 'audio', S: 'subtitle' } as const;
  return text.split(/\r?\n/).flatMap((line) => {
    const match = /^\s*([VAS])([.F])([.S])([.X])([.B])([.D])\s+(\S+)\s+(.*)$/.exec(line);
    if (!match || match[7] === '=') return [];
    return [{ name: match[7]!, type: types[match[1] as keyof typeof types], experimental: match[4] === 'X', description: match[8]!.trim() }];
  });
}

/** `-devices` rows with demuxing: ` D  x11grab  X11 screen capture`; `video4linux2,v4l2` gives both names. */
export function parseInputDevices(text: string): string[] {
  return text.split(/\r?\n/).flatMap((line) => {
    const match = /^\s?(D)([E ])\s+(\S+)\s/.exec(line);
    return match && match[3] !== '=' ? match[3]!.split(',') : [];
  });
}

/** `-filters` rows: ` ... amix   N->A  Audio mixing.` (two or three flag columns before the name). */
export function parseFilters(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*[A-Z.]{2,4}\s+(\S+)\s+\S*->\S*\s/.exec(line);
    if (match) names.add(match[1]!);
  }
  return names;
}

/** `-hwaccels`: a title line, then one method per line. */
export function parseHwaccels(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !/:$/.test(line));
}

/** Known encoders the build lists (experimental ones left out); libaom only without SVT-AV1. */
export function listedProfiles(probe: Pick<EngineProbe, 'encoders'>): EncoderProfile[] {
  const listed = new Set(probe.encoders.filter((encoder) => encoder.type === 'video' && !encoder.experimental).map((encoder) => encoder.name));
  return ENCODER_PROFILES.filter((entry) => listed.has(entry.id) && !(entry.id === 'libaom-av1' && listed.has('libsvtav1')));
}

const TEST_ENCODE_SETTINGS: VideoEncoderSettings = {
  encoder: 'gpu', codec: null, rateControl: 'VBR', crfValue: 23, cqLevel: 20, bitrate: 6, minBitrate: 4, maxBitrate: 8, frameRate: 30,
};

/**
 * The listed profiles that work: software ones as listed, hardware ones only after encoding one
 * frame with the same arguments a recording uses (a build with NVENC on a machine without an
 * NVIDIA GPU fails here). Run one after another: drivers dislike parallel session starts.
 */
export async function workingCodecs(run: CommandRunner, ffmpegPath: string, probe: Pick<EngineProbe, 'encoders'>, logger?: Logger): Promise<Codec[]> {
  const working: Codec[] = [];
  for (const entry of listedProfiles(probe)) {
    if (entry.hardware) {
      const problem = await testEncode(run, ffmpegPath, entry);
      if (problem) {
        logger?.info('hardware encoder listed but not usable here', { encoder: entry.id, problem });
        continue;
      }
    }
    working.push(toCodec(entry));
  }
  return working;
}

/** Undefined when one frame encodes, else what ffmpeg said. */
export async function testEncode(run: CommandRunner, ffmpegPath: string, entry: EncoderProfile): Promise<string | undefined> {
  const result = await run(ffmpegPath, [
    '-hide_banner', '-loglevel', 'error', '-nostdin',
    '-f', 'lavfi', '-i', 'color=c=black:s=256x144:r=30',
    '-frames:v', '1', '-an', ...encoderArgs(entry, TEST_ENCODE_SETTINGS), '-f', 'null', '-',
  ]);
  if (!result) return 'no answer (the command runner timed out or could not start ffmpeg)';
  if (result.code === 0) return undefined;
  return result.stderr.trim().split(/\r?\n/).slice(-2).join(' ') || `exit code ${result.code}`;
}

export interface EngineDownload {
  url: string;
  /** Expected SHA-256 of the file, hex. */
  sha256: string;
  folder: string;
  fileName: string;
  /** Whole percent, called only when it changes. */
  onProgress?: (percent: number) => void;
}

/**
 * Streams the file into `folder` (as `<fileName>.download` until it is checked), verifies its
 * SHA-256 and makes it executable. A failed or mismatching download leaves no file behind.
 */
export async function downloadCaptureEngine(download: EngineDownload): Promise<string> {
  const target = path.join(download.folder, download.fileName);
  const partial = `${target}.download`;
  const actual = await downloadToFile(download.url, partial, download.onProgress).catch((error: Error) => {
    throw new Error(`Downloading the capture engine from ${download.url} failed: ${error.message}.`);
  });
  if (!sameDigest(actual, download.sha256)) {
    await rm(partial, { force: true });
    throw new Error(`The capture engine downloaded from ${download.url} has SHA-256 ${actual}, not the expected ${download.sha256.trim().toLowerCase()}; it was deleted and not run.`);
  }
  await chmod(partial, 0o755);
  await rename(partial, target);
  return target;
}
