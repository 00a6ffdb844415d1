// The ffmpeg build Keyframe runs: found in the order of TOOLCHAIN.md (environment variable,
// ffmpeg-static, the @ffmpeg-installer / @ffprobe-installer packages, then PATH) or, where
// configured, downloaded; then probed once for its encoders and capture devices. Every feature that
// runs ffmpeg asks `requireFfmpeg(operation)`, which refuses in that operation's name.
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { chmod, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { injectable } from 'tsyringe';
import { currentEnvironment, type Environment } from '../platform/data-folders.js';
import { detectGpuDeviceFiles, type GpuDeviceFiles } from '../platform/gpu.js';
import { systemCommandRunner, type CommandRunner } from '../platform/system-commands.js';
import type { CaptureEngineInfo, Codec } from '../protocol/index.js';
import { CommandError } from '../protocol/refusal.js';
import { downloadToFile, sameDigest } from '../support/download.js';
import { Logger } from '../support/logger.js';
import {
  ENCODER_PROFILES,
  encoderArgs,
  missingGpuDevice,
  toCodec,
  type EncoderProfile,
  type VideoEncoderSettings,
} from './video-encoder.js';

export type ToolSource = CaptureEngineInfo['source'];

export interface LocatedTool {
  path: string;
  source: ToolSource;
}

export interface LocatedTools {
  ffmpeg: LocatedTool;
  ffprobe: LocatedTool;
}

/** What was tried and why it was not taken; part of the error text when nothing is found. */
export interface Candidate {
  source: ToolSource;
  path?: string;
  problem: string;
}

export class FfmpegNotFoundError extends Error {
  constructor(
    readonly tool: 'ffmpeg' | 'ffprobe',
    readonly tried: readonly Candidate[],
  ) {
    const variable = tool === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH';
    super(
      `${tool} was not found. Install ffmpeg (it provides ${tool}) so that it is on PATH, or set ${variable} to the ` +
        `executable. Tried: ${tried.map((candidate) => `${candidate.source}${candidate.path ? ` ${candidate.path}` : ''} (${candidate.problem})`).join('; ')}.`,
    );
    this.name = 'FfmpegNotFoundError';
  }
}

/** The package specifiers are resolved from here, i.e. from @keyframe/core's own dependencies. */
const requireFromCore = createRequire(import.meta.url);

interface ToolRecipe {
  tool: 'ffmpeg' | 'ffprobe';
  variable: string;
  /** Packages whose export is the path (`ffmpeg-static`) or has a `.path` (`@ffmpeg-installer/ffmpeg`). */
  packages: { specifier: string; source: ToolSource }[];
}

const RECIPES: Record<'ffmpeg' | 'ffprobe', ToolRecipe> = {
  ffmpeg: {
    tool: 'ffmpeg',
    variable: 'FFMPEG_PATH',
    packages: [
      { specifier: 'ffmpeg-static', source: 'ffmpeg-static' },
      { specifier: '@ffmpeg-installer/ffmpeg', source: 'installer-package' },
    ],
  },
  ffprobe: {
    tool: 'ffprobe',
    variable: 'FFPROBE_PATH',
    packages: [{ specifier: '@ffprobe-installer/ffprobe', source: 'installer-package' }],
  },
};

export interface LocateOptions {
  environment?: Environment;
  /** Loads a package by specifier; tests replace it. Default: `require` from this package. */
  loadPackage?: (specifier: string) => unknown;
}

/** Both tools, or `FfmpegNotFoundError` naming what was tried. */
export function locateFfmpegTools(options: LocateOptions = {}): LocatedTools {
  return { ffmpeg: locateTool('ffmpeg', options), ffprobe: locateTool('ffprobe', options) };
}

/** The first candidate of `allCandidates`, or `FfmpegNotFoundError` naming what was tried. */
export function locateTool(tool: 'ffmpeg' | 'ffprobe', options: LocateOptions = {}): LocatedTool {
  const { found, tried } = allCandidates(tool, options);
  if (found[0]) return found[0];
  throw new FfmpegNotFoundError(tool, tried);
}

/**
 * One runnable executable per kind of source, in order: the environment variable's, the bundled
 * one (the first package that gives a usable path), the first on PATH; and what was tried in vain.
 */
export function allCandidates(tool: 'ffmpeg' | 'ffprobe', options: LocateOptions = {}): { found: LocatedTool[]; tried: Candidate[] } {
  const environment = options.environment ?? currentEnvironment();
  const loadPackage = options.loadPackage ?? ((specifier: string) => requireFromCore(specifier) as unknown);
  const recipe = RECIPES[tool];
  const found: LocatedTool[] = [];
  const tried: Candidate[] = [];
  const consider = (source: ToolSource, candidate: string): boolean => {
    const problem = executableProblem(candidate, environment.platform);
    if (problem) tried.push({ source, path: candidate, problem });
    else found.push({ path: candidate, source });
    return !problem;
  };

  const fromVariable = environment.variables[recipe.variable];
  if (fromVariable) consider('environment', path.resolve(fromVariable));
  else tried.push({ source: 'environment', problem: `${recipe.variable} not set` });

  for (const { specifier, source } of recipe.packages) {
    let exported: unknown;
    try {
      exported = loadPackage(specifier);
    } catch (error) {
      // @ffmpeg-installer throws a plain string when its platform binary is missing.
      tried.push({ source, problem: `${specifier} not usable: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` });
      continue;
    }
    const packagePath = typeof exported === 'string' ? exported : pathProperty(exported);
    if (!packagePath) {
      tried.push({ source, problem: `${specifier} gave no path` });
      continue;
    }
    if (consider(source, packagePath)) break;
  }

  const onPath = findOnPath(tool, environment);
  if (onPath) found.push({ path: onPath, source: 'path' });
  else tried.push({ source: 'path', problem: `no ${tool} in PATH` });
  return { found, tried };
}

/** The first executable file called `name` in the PATH folders (with PATHEXT on Windows). */
export function findOnPath(name: string, environment: Environment = currentEnvironment()): string | undefined {
  const windows = environment.platform === 'win32';
  const separator = windows ? ';' : ':';
  const folders = (environment.variables.PATH ?? environment.variables.Path ?? '').split(separator).filter(Boolean);
  const extensions = windows ? (environment.variables.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean) : [''];
  for (const folder of folders) {
    for (const extension of extensions) {
      const candidate = path.join(folder, `${name}${extension}`);
      if (!executableProblem(candidate, environment.platform)) return candidate;
    }
  }
  return undefined;
}

/** Why `file` cannot be run, or undefined when it can. */
function executableProblem(file: string, platform: NodeJS.Platform): string | undefined {
  try {
    if (!statSync(file).isFile()) return 'not a file';
  } catch {
    return 'file does not exist';
  }
  if (platform === 'win32') return undefined;
  try {
    accessSync(file, constants.X_OK);
    return undefined;
  } catch {
    return 'not executable (chmod u+x it)';
  }
}

function pathProperty(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const candidate = (value as { path?: unknown }).path;
  return typeof candidate === 'string' ? candidate : undefined;
}

/** An ffmpeg that runs, with its version. */
export interface FfmpegBuild extends LocatedTool {
  /** `5.1.9-0+deb12u1`, `N-47683-g0e8eb07980-static`. */
  version: string;
  /** The capture inputs `-devices` lists, when it was asked. */
  inputFormats?: readonly string[];
}

/** What a recording or a job runs; `ffprobe` reads the result. */
export interface FfmpegTools {
  ffmpeg: FfmpegBuild;
  ffprobe: LocatedTool;
}

/** The screen and sound inputs a recording on each platform opens. */
const PLATFORM_CAPTURE_INPUTS: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: ['x11grab', 'pulse'],
  freebsd: ['x11grab', 'pulse'],
  win32: ['gdigrab', 'dshow'],
  darwin: ['avfoundation'],
};

export interface EncoderListing {
  name: string;
  type: 'video' | 'audio' | 'subtitle';
  experimental: boolean;
  description: string;
}

/** What the ffmpeg build can do, from `-version`, `-encoders`, `-devices`, `-filters`, `-hwaccels`. */
export interface BuildProbe {
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

/** The machine the toolbox looks at; tests register their own instance. */
export class FfmpegToolboxConfig {
  environment: Environment = currentEnvironment();
  /** How the locator loads `@ffmpeg-installer/ffmpeg` & co.; default: `require`. */
  loadPackage?: (specifier: string) => unknown;
  /** Runs ffmpeg probes (and, for the capabilities, OS tools); default: `systemCommandRunner`. */
  run?: CommandRunner;
  /** Linux's GPU device files: a hardware encoder whose device is missing gets no test encode. Default: those in `/dev`. */
  gpuDeviceFiles?: () => Promise<GpuDeviceFiles>;
}

/** Why there is no ffmpeg: `subtitle` is the short reason, the message says how to fix it. */
export class FfmpegUnavailableError extends Error {
  constructor(
    readonly subtitle: string,
    description: string,
  ) {
    super(description);
    this.name = 'FfmpegUnavailableError';
  }
}

export interface ToolboxLoad {
  /** Where a downloaded build is kept (and looked for at the next start). */
  downloadFolder: string;
  /** The version the user selected (`selectedCaptureEngineVersion`), if any. */
  preferredVersion?: string | null;
  /** Whole percent of a first-run download, called only when it changes. */
  onDownloadProgress?: (percent: number) => void;
}

@injectable()
export class FfmpegToolbox {
  readonly run: CommandRunner;
  private loading: Promise<void> | undefined;
  private found: FfmpegTools | undefined;
  private problem: FfmpegUnavailableError | undefined;
  private buildProbe: BuildProbe | undefined;
  private usableCodecs: Codec[] = [];
  private deviceFiles: GpuDeviceFiles | undefined;
  private alternatives: FfmpegBuild[] = [];
  private readonly logger: Logger;

  constructor(
    private readonly config: FfmpegToolboxConfig,
    logger: Logger,
  ) {
    this.logger = logger.child('ffmpeg');
    this.run = config.run ?? systemCommandRunner(this.logger);
  }

  get environment(): Environment {
    return this.config.environment;
  }

  /**
   * Finds (or downloads) and probes ffmpeg, once; later calls return the same promise. Never
   * rejects: without ffmpeg, `failure` says why and `requireFfmpeg` refuses.
   */
  load(request: ToolboxLoad): Promise<void> {
    this.loading ??= this.find(request);
    return this.loading;
  }

  /** True once a build was found and probed. */
  get available(): boolean {
    return this.found !== undefined;
  }

  /** Why loading failed; undefined while loading and once it succeeded. */
  get failure(): FfmpegUnavailableError | undefined {
    return this.problem;
  }

  /**
   * ffmpeg and ffprobe, or the refusal `operation` ("Making the clip") gets: it names what could
   * not be done and says how to fix it.
   */
  requireFfmpeg(operation: string): FfmpegTools {
    if (this.found) return this.found;
    const reason = this.problem ? `is not available: ${this.problem.message}` : 'is still being set up: try again in a moment.';
    throw new CommandError('Unavailable', `${operation} needs ffmpeg, which ${reason}`);
  }

  get probe(): BuildProbe | undefined {
    return this.buildProbe;
  }

  /** Linux's GPU device files as the start-up test encodes found them; undefined elsewhere and before the load. */
  get gpuDeviceFiles(): GpuDeviceFiles | undefined {
    return this.deviceFiles;
  }

  /** The video encoders offered to the user: known, listed by the build, and working here. */
  get codecs(): readonly Codec[] {
    return this.usableCodecs;
  }

  /** The build in use first, then the other runnable ones. */
  get builds(): readonly FfmpegBuild[] {
    return this.found ? [this.found.ffmpeg, ...this.alternatives] : [];
  }

  hasInput(format: string): boolean {
    return this.buildProbe?.inputFormats.has(format) ?? false;
  }

  private async find(request: ToolboxLoad): Promise<void> {
    try {
      const builds = await this.runnableBuilds(request);
      const ffmpeg = this.choose(builds, request.preferredVersion ?? undefined);
      let ffprobe: LocatedTool;
      try {
        ffprobe = locateTool('ffprobe', this.locateOptions());
      } catch (error) {
        throw new FfmpegUnavailableError('ffprobe not found', (error as Error).message);
      }
      this.buildProbe = await probeBuild(this.run, ffmpeg.path, ffmpeg.version);
      this.deviceFiles = await this.detectGpuDeviceFiles();
      this.usableCodecs = await workingCodecs(this.run, ffmpeg.path, this.buildProbe, this.logger, this.deviceFiles);
      this.alternatives = builds.filter((build) => build !== ffmpeg);
      this.found = { ffmpeg, ffprobe };
      this.logger.info('ffmpeg ready', {
        ffmpeg: ffmpeg.path,
        source: ffmpeg.source,
        version: ffmpeg.version,
        ffprobe: ffprobe.path,
        codecs: this.usableCodecs.map((codec) => codec.internalEncoderId),
        inputs: [...this.buildProbe.inputFormats],
        alternatives: this.alternatives.map((build) => build.path),
      });
    } catch (error) {
      this.problem =
        error instanceof FfmpegUnavailableError
          ? error
          : new FfmpegUnavailableError('Capture engine error', `The capture engine could not be set up: ${(error as Error).message}`);
      this.logger.error('ffmpeg unavailable: recording and media jobs are off', { error: this.problem.message });
    }
  }

  private locateOptions(): LocateOptions {
    return { environment: this.config.environment, ...(this.config.loadPackage ? { loadPackage: this.config.loadPackage } : {}) };
  }

  /**
   * Every runnable ffmpeg, in the locator's order (FFMPEG_PATH, packages, PATH), then a downloaded
   * one; with none at all, the configured download.
   */
  private async runnableBuilds(request: ToolboxLoad): Promise<FfmpegBuild[]> {
    const environment = this.config.environment;
    const candidates = ffmpegCandidates(this.locateOptions(), request.downloadFolder);
    if (candidates.length === 0) candidates.push({ path: await this.download(request), source: 'downloaded' });
    const builds = await Promise.all(
      candidates.map(async (candidate): Promise<FfmpegBuild | undefined> => {
        const [result, devices] = await Promise.all([
          this.run(candidate.path, ['-hide_banner', '-version']),
          this.run(candidate.path, ['-hide_banner', '-devices']),
        ]);
        const version = result?.code === 0 ? parseVersion(result.stdout) : undefined;
        if (!version)
          this.logger.warn('an ffmpeg was found but does not run', {
            path: candidate.path,
            error: result?.stderr.trim() ?? 'could not be started',
          });
        return version ? { ...candidate, version, inputFormats: parseInputDevices(devices?.stdout ?? '') } : undefined;
      }),
    );
    const working = builds.filter((build): build is FfmpegBuild => build !== undefined);
    if (working.length === 0) {
      throw new FfmpegUnavailableError(
        'Capture engine does not run',
        `ffmpeg was found (${candidates.map((candidate) => candidate.path).join(', ')}) but does not run on this machine. ${installAdvice(environment.platform)}`,
      );
    }
    return working;
  }

  /**
   * The version the user selected, else the one `FFMPEG_PATH` names, else the first that can
   * capture this platform's screen and sound (the bundled Linux build has no PulseAudio input, a
   * distribution's ffmpeg has), else the first found.
   */
  private choose(builds: FfmpegBuild[], selected: string | undefined): FfmpegBuild {
    const match = selected ? builds.find((build) => build.version === selected) : undefined;
    if (selected && !match)
      this.logger.warn('the selected capture engine version is not installed', { selected, found: builds.map((build) => build.version) });
    const wanted = PLATFORM_CAPTURE_INPUTS[this.config.environment.platform] ?? [];
    return (
      match ??
      builds.find((build) => build.source === 'environment') ??
      builds.find((build) => wanted.every((input) => build.inputFormats?.includes(input))) ??
      builds[0]!
    );
  }

  /** Only on Linux, where every GPU encoder opens a device file; elsewhere each listed one is tried. */
  private async detectGpuDeviceFiles(): Promise<GpuDeviceFiles | undefined> {
    const { platform } = this.config.environment;
    if (platform !== 'linux' && platform !== 'freebsd') return undefined;
    return (this.config.gpuDeviceFiles ?? detectGpuDeviceFiles)();
  }

  private async download(request: ToolboxLoad): Promise<string> {
    const variables = this.config.environment.variables;
    const url = variables.KEYFRAME_CAPTURE_ENGINE_URL?.trim();
    const sha256 = variables.KEYFRAME_CAPTURE_ENGINE_SHA256?.trim();
    const advice = installAdvice(this.config.environment.platform);
    if (!url) {
      throw new FfmpegUnavailableError(
        'Capture engine not found',
        `Keyframe records with ffmpeg and found none (not in FFMPEG_PATH, not bundled, not on PATH). ${advice}`,
      );
    }
    if (!sha256) {
      throw new FfmpegUnavailableError(
        'Capture engine not verified',
        `KEYFRAME_CAPTURE_ENGINE_URL is set but KEYFRAME_CAPTURE_ENGINE_SHA256 is not: Keyframe only runs a downloaded capture engine whose SHA-256 it can check. Set it, or: ${advice}`,
      );
    }
    this.logger.info('downloading the capture engine', { url, folder: request.downloadFolder });
    try {
      const file = await downloadFfmpegBuild({
        url,
        sha256,
        folder: request.downloadFolder,
        fileName: ffmpegFileName(this.config.environment.platform),
        ...(request.onDownloadProgress ? { onProgress: request.onDownloadProgress } : {}),
      });
      this.logger.info('capture engine downloaded', { file });
      return file;
    } catch (error) {
      throw new FfmpegUnavailableError('Capture engine download failed', `${(error as Error).message} ${advice}`);
    }
  }
}

const ffmpegFileName = (platform: NodeJS.Platform) => (platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg');

function installAdvice(platform: NodeJS.Platform): string {
  const install =
    platform === 'win32'
      ? 'install ffmpeg (winget install ffmpeg)'
      : platform === 'darwin'
        ? 'install ffmpeg (brew install ffmpeg)'
        : 'install ffmpeg with your package manager (sudo apt install ffmpeg, sudo dnf install ffmpeg)';
  return `To fix it, ${install}, or run npm install in the Keyframe folder to restore the bundled ffmpeg, or set FFMPEG_PATH to an ffmpeg executable; then restart Keyframe.`;
}

/** The runnable ffmpeg executables, the locator's and a downloaded one, deduplicated by real path. */
export function ffmpegCandidates(options: LocateOptions, downloadFolder: string): LocatedTool[] {
  const platform = (options.environment ?? currentEnvironment()).platform;
  const downloaded = path.join(downloadFolder, ffmpegFileName(platform));
  const candidates = [...allCandidates('ffmpeg', options).found];
  if (!executableProblem(downloaded, platform)) candidates.push({ path: downloaded, source: 'downloaded' });
  const seen = new Set<string>();
  return candidates.filter((candidate) => {
    const real = realPath(candidate.path);
    if (seen.has(real)) return false;
    seen.add(real);
    return true;
  });
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
export async function probeBuild(run: CommandRunner, ffmpegPath: string, knownVersion?: string): Promise<BuildProbe> {
  const ask = (option: string) => run(ffmpegPath, ['-hide_banner', option]);
  const [version, encoders, devices, demuxers, filters, hwaccels] = await Promise.all([
    knownVersion === undefined ? ask('-version') : undefined,
    ask('-encoders'),
    ask('-devices'),
    ask('-demuxers'),
    ask('-filters'),
    ask('-hwaccels'),
  ]);
  if (encoders?.code !== 0) throw new Error(`${ffmpegPath} -encoders failed: ${encoders?.stderr.trim() || 'it could not be started'}`);
  const probe = probeFromListings({
    version: version?.stdout ?? '',
    encoders: encoders.stdout,
    devices: devices?.stdout ?? '',
    demuxers: demuxers?.stdout ?? '',
    filters: filters?.stdout ?? '',
    hwaccels: hwaccels?.stdout ?? '',
  });
  return knownVersion === undefined ? probe : { ...probe, version: knownVersion };
}

/** The screen and sound inputs Keyframe opens, on any platform. */
const CAPTURE_INPUTS: ReadonlySet<string> = new Set(Object.values(PLATFORM_CAPTURE_INPUTS).flat());

/**
 * What the build can do, from the text of its listings (`-version`, `-encoders`, `-devices`, `-demuxers`,
 * `-filters`, `-hwaccels`). A capture input counts when either `-devices` or `-demuxers` lists it: Windows
 * builds of 2018 (what `@ffmpeg-installer/win32-x64` ships) leave gdigrab out of `-devices`.
 */
export function probeFromListings(listings: {
  version: string;
  encoders: string;
  devices: string;
  demuxers?: string;
  filters: string;
  hwaccels?: string;
}): BuildProbe {
  const filters = parseFilters(listings.filters);
  const inputFormats = new Set(parseInputDevices(listings.devices));
  for (const name of parseDemuxers(listings.demuxers ?? '')) if (CAPTURE_INPUTS.has(name)) inputFormats.add(name);
  if (filters.has('ddagrab')) inputFormats.add('ddagrab');
  return {
    version: parseVersion(listings.version) ?? 'unknown',
    encoders: parseEncoders(listings.encoders),
    inputFormats,
    filters,
    hwaccels: parseHwaccels(listings.hwaccels ?? ''),
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
    return [
      { name: match[7]!, type: types[match[1] as keyof typeof types], experimental: match[4] === 'X', description: match[8]!.trim() },
    ];
  });
}

/** `-devices` rows with demuxing: ` D  x11grab  X11 screen capture`; `video4linux2,v4l2` gives both names. */
/** `-demuxers` rows: ` D  gdigrab   GDI API …`, since 7.0 with a device column: ` D d gdigrab`. */
export function parseDemuxers(text: string): string[] {
  return text.split(/\r?\n/).flatMap((line) => {
    const match = /^\s?D[E. ]?(?:\s+d)?\s+(\S+)/.exec(line);
    return match && match[1] !== '=' ? match[1]!.split(',') : [];
  });
}

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
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !/:$/.test(line));
}

/** Known encoders the build lists (experimental ones left out); libaom only without SVT-AV1. */
export function listedProfiles(probe: Pick<BuildProbe, 'encoders'>): EncoderProfile[] {
  const listed = new Set(
    probe.encoders.filter((encoder) => encoder.type === 'video' && !encoder.experimental).map((encoder) => encoder.name),
  );
  return ENCODER_PROFILES.filter((entry) => listed.has(entry.id) && !(entry.id === 'libaom-av1' && listed.has('libsvtav1')));
}

/** The settings of the start-up test encode: the defaults (hardware, VBR 4–8 Mb/s). */
export const TEST_ENCODE_SETTINGS: VideoEncoderSettings = {
  encoder: 'gpu',
  codec: null,
  rateControl: 'VBR',
  crfValue: 23,
  cqLevel: 20,
  bitrate: 6,
  minBitrate: 4,
  maxBitrate: 8,
  frameRate: 30,
};

/**
 * The listed profiles that work: software ones as listed, hardware ones only after encoding one
 * frame with the same arguments a recording uses (a build with NVENC on a machine without an
 * NVIDIA GPU fails here). Run one after another: drivers dislike parallel session starts.
 */
export async function workingCodecs(
  run: CommandRunner,
  ffmpegPath: string,
  probe: Pick<BuildProbe, 'encoders'>,
  logger?: Logger,
  /** Linux's GPU device files: an encoder whose device is missing is not tried. */
  devices?: GpuDeviceFiles,
): Promise<Codec[]> {
  const problemOf = async (entry: EncoderProfile) =>
    !entry.hardware ? undefined : ((devices && missingGpuDevice(entry, devices)) ?? (await testEncode(run, ffmpegPath, entry)));
  // Side by side: a failing one costs an ffmpeg start (~80 ms for a distribution's build), and the
  // service's start-up waits for all of them. Each is one frame, well within a GPU's session limit.
  const verdicts = await Promise.all(listedProfiles(probe).map(async (entry) => ({ entry, problem: await problemOf(entry) })));
  return verdicts.flatMap(({ entry, problem }) => {
    if (!problem) return [toCodec(entry)];
    logger?.info('hardware encoder listed but not usable here', { encoder: entry.id, problem });
    return [];
  });
}

/** Undefined when one frame encodes, else what ffmpeg said. */
export async function testEncode(run: CommandRunner, ffmpegPath: string, entry: EncoderProfile): Promise<string | undefined> {
  const result = await run(ffmpegPath, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-f',
    'lavfi',
    '-i',
    'color=c=black:s=256x144:r=30',
    '-frames:v',
    '1',
    '-an',
    ...encoderArgs(entry, TEST_ENCODE_SETTINGS),
    '-f',
    'null',
    '-',
  ]);
  if (!result) return 'no answer (the command runner timed out or could not start ffmpeg)';
  if (result.code === 0) return undefined;
  return result.stderr.trim().split(/\r?\n/).slice(-2).join(' ') || `exit code ${result.code}`;
}

export interface BuildDownload {
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
export async function downloadFfmpegBuild(download: BuildDownload): Promise<string> {
  const target = path.join(download.folder, download.fileName);
  const partial = `${target}.download`;
  const actual = await downloadToFile(download.url, partial, download.onProgress).catch((error: Error) => {
    throw new Error(`Downloading the capture engine from ${download.url} failed: ${error.message}.`);
  });
  if (!sameDigest(actual, download.sha256)) {
    await rm(partial, { force: true });
    throw new Error(
      `The capture engine downloaded from ${download.url} has SHA-256 ${actual}, not the expected ${download.sha256.trim().toLowerCase()}; it was deleted and not run.`,
    );
  }
  await chmod(partial, 0o755);
  await rename(partial, target);
  return target;
}
