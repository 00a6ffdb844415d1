// What this machine can record with: its displays, audio devices and GPU, and the video encoders the
// ffmpeg build offers here (State shows them). Detected once at start-up (the ffmpeg toolbox is loaded
// then, with a dialog when there is none) and again after a device change.
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { describeCapture, type CaptureDescription } from '../media/capture-in-use.js';
import { planCapture, type CaptureMachine } from '../media/capture-plan.js';
import { FfmpegToolbox, type FfmpegBuild } from '../media/ffmpeg-toolbox.js';
import { chooseCaptureSource, type CaptureCapabilities, type CaptureCapabilitiesProvider } from '../media/capture-source.js';
import { captureFormat } from '../media/session-encoding.js';
import { detectAudioDevices, NO_AUDIO_DEVICES, type AudioDevices } from '../platform/audio-devices.js';
import { detectDisplays, maxDisplayHeight, type DetectedDisplay } from '../platform/displays.js';
import { detectGpu, type GpuInfo } from '../platform/gpu.js';
import type { CaptureEngineInfo, Codec, Settings } from '../protocol/index.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { ServiceOptions } from '../service-options.js';
import { Notifier } from '../notices/notifier.js';
import { SettingsStore } from '../settings/settings-store.js';
import { TypedEvents } from '../support/typed-events.js';
import { Logger } from '../support/logger.js';
import { captureEngineInfo } from './capture-engine-report.js';

export type MachineCapabilityEvents = {
  /** Displays and audio devices detected again (after a device change). */
  devicesDetected: SystemDevices;
  /** Start-up is done: the ffmpeg toolbox is loaded (or found missing) and the devices and GPU detected. */
  loaded: { devices: SystemDevices; codecs: readonly Codec[]; builds: readonly FfmpegBuild[]; captureEngine: CaptureEngineInfo | null };
};

/** Everything State tells about this machine's capture hardware. */
export interface SystemDevices {
  displays: DetectedDisplay[];
  audio: AudioDevices;
  gpu: GpuInfo;
}

/** Where GPU detection looks; tests register their own instance. */
export class MachineCapabilitiesConfig {
  /** Root of sysfs for GPU detection on Linux. */
  sysfsRoot?: string;
}

/** A downloaded ffmpeg is kept here, in the data folder (the name is what older versions used). */
const DOWNLOAD_FOLDER = 'capture-engine';

@injectable()
export class MachineCapabilities implements CaptureCapabilitiesProvider {
  private starting: Promise<void> | undefined;
  private devices: SystemDevices = { displays: [], audio: NO_AUDIO_DEVICES, gpu: { vendor: 'Unknown', computeCapability: 0 } };
  private readonly logger: Logger;
  readonly events = new TypedEvents<MachineCapabilityEvents>();

  constructor(
    readonly toolbox: FfmpegToolbox,
    private readonly notifier: Notifier,
    @inject(EVENT_SINK) private readonly sink: EventSink,
    private readonly settings: SettingsStore,
    private readonly options: ServiceOptions,
    private readonly config: MachineCapabilitiesConfig,
    logger: Logger,
  ) {
    this.logger = logger.child('capabilities');
  }

  /**
   * Loads the ffmpeg toolbox and detects displays, audio devices and the GPU, once; later calls
   * return the same promise. Never rejects: a missing ffmpeg is a dialog for the user, and State's
   * `hasLoadedCaptureEngine` becomes true either way.
   */
  start(): Promise<void> {
    this.starting ??= this.load();
    return this.starting;
  }

  get system(): Readonly<SystemDevices> {
    return this.devices;
  }

  get maxDisplayHeight(): number {
    return maxDisplayHeight(this.devices.displays);
  }

  /** The ffmpeg in use and what it lacks on this platform; null until it was probed and without one. */
  get captureEngine(): CaptureEngineInfo | null {
    const build = this.toolbox.builds[0];
    const probe = this.toolbox.probe;
    return build && probe ? captureEngineInfo(build, probe, this.toolbox.environment.platform) : null;
  }

  /** What capture source selection needs; undefined until the ffmpeg build was probed. */
  captureCapabilities(): CaptureCapabilities | undefined {
    const probe = this.toolbox.probe;
    if (!probe) return undefined;
    // The hardware encoders offered here are the ones whose start-up test encode passed.
    const testedEncoders = new Set(this.toolbox.codecs.filter((codec) => codec.isHardwareEncoder).map((codec) => codec.internalEncoderId));
    return {
      inputFormats: probe.inputFormats,
      displays: this.devices.displays,
      audio: this.devices.audio,
      planCapture: (request) => planCapture({ ...request, machine: this.captureMachine(), build: probe, testedEncoders }),
    };
  }

  /** What the next recording with `settings` (no game's overrides) would record with; null until the ffmpeg build was probed. */
  nextCapture(settings: Readonly<Settings>): CaptureDescription | null {
    const capabilities = this.captureCapabilities();
    if (!capabilities) return null;
    const format = captureFormat(settings.resolution, settings.frameRate, this.maxDisplayHeight);
    const { source } = chooseCaptureSource(this.toolbox.environment, capabilities);
    const plan = source.plan?.({ ...format, display: settings.selectedDisplay, encoding: { ...settings, ...format } });
    return describeCapture(source.name, plan, settings, this.toolbox.codecs);
  }

  private captureMachine(): CaptureMachine {
    const { platform, variables } = this.toolbox.environment;
    const { displays, gpu } = this.devices;
    return {
      platform,
      variables,
      renderNodes: this.toolbox.gpuDeviceFiles?.renderNodes ?? [],
      nvidiaControl: this.toolbox.gpuDeviceFiles?.nvidiaControl ?? false,
      gpuVendors: gpu.vendor === 'Unknown' ? [] : [gpu.vendor],
      displays,
      cores: availableParallelism(),
    };
  }

  /** Detects displays and audio devices again (after a device change) and announces them (`devicesDetected`). */
  async refreshDevices(): Promise<void> {
    const [displays, audio] = await Promise.all([
      this.tolerant('displays', detectDisplays(this.toolbox.run, this.toolbox.environment), this.devices.displays),
      this.tolerant('audio devices', this.detectAudio(), this.devices.audio),
    ]);
    this.devices = { ...this.devices, displays, audio };
    this.events.emit('devicesDetected', this.devices);
  }

  private async load(): Promise<void> {
    const startedAt = Date.now();
    const { run, environment } = this.toolbox;
    const displaysAndGpu = Promise.all([
      this.tolerant('displays', detectDisplays(run, environment), []),
      this.tolerant('GPU', detectGpu(run, environment, this.config.sysfsRoot === undefined ? {} : { sysfsRoot: this.config.sysfsRoot }), {
        vendor: 'Unknown' as const,
        computeCapability: 0,
      }),
    ]);
    await this.toolbox.load({
      downloadFolder: path.join(this.options.dataFolder, DOWNLOAD_FOLDER),
      preferredVersion: this.settings.current.selectedCaptureEngineVersion,
      onDownloadProgress: (progress) => this.sink.send('CaptureEngineDownloadProgress', { progress, status: 'downloading' }),
    });
    const failure = this.toolbox.failure;
    if (failure)
      this.notifier.showModal({
        title: 'Recording is not available',
        subtitle: failure.subtitle,
        description: failure.message,
        type: 'error',
      });
    const [displays, gpu] = await displaysAndGpu;
    const audio = await this.tolerant('audio devices', this.detectAudio(), NO_AUDIO_DEVICES);
    this.devices = { displays, audio, gpu };
    this.logger.info('capture devices', {
      displays: displays.map((display) => `${display.deviceName} ${display.width}x${display.height}+${display.x}+${display.y}`),
      inputs: audio.inputs.map((device) => device.id),
      outputs: audio.outputs.map((device) => device.id),
      gpu: gpu.vendor,
      computeCapability: gpu.computeCapability,
      tookMs: Date.now() - startedAt,
    });
    this.events.emit('loaded', {
      devices: this.devices,
      codecs: this.toolbox.codecs,
      builds: this.toolbox.builds,
      captureEngine: this.captureEngine,
    });
  }

  private detectAudio(): Promise<AudioDevices> {
    const ffmpeg = this.toolbox.available ? this.toolbox.requireFfmpeg('Listing audio devices').ffmpeg.path : undefined;
    return detectAudioDevices(this.toolbox.run, this.toolbox.environment, ffmpeg);
  }

  /** Detection is best effort: a failure leaves that part empty instead of stopping start-up. */
  private tolerant<T>(what: string, detection: Promise<T>, fallback: T): Promise<T> {
    return detection.catch((error: unknown) => {
      this.logger.warn(`${what} could not be detected`, { error: (error as Error).message });
      return fallback;
    });
  }
}
