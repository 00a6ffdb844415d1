// The runtime State of SPEC, in memory only, and its only writer: a projection of the features' domain
// events (`follow`). Changes are coalesced so that a burst of updates produces one `State` event, and a
// lone change goes out at once (bookmark latency matters). State is replaced, never changed in place, so
// each State sent can be diffed against the previous one by reference (Incremental State).
import { inject, injectable } from 'tsyringe';
import type { State } from '../protocol/index.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import type { MachineCapabilities } from '../capabilities/machine-capabilities.js';
import type { ContentLibrary } from '../library/content-library.js';
import type { IntegrationHost } from '../integrations/integration-host.js';
import type { RecorderService } from '../recording/recorder-service.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { IntegrationSettingsSchemas } from '../settings/integration-settings-schemas.js';
import type { StorageMonitor } from '../storage/storage-monitor.js';
import type { Updater } from '../updates/updater.js';
import type { StartupProgress } from '../support/startup-progress.js';
import {
  projectCapabilities,
  projectIntegrationPackages,
  projectIntegrations,
  projectIntegrationSettings,
  projectLibrary,
  projectLoading,
  projectNextCapture,
  projectSettings,
  projectStorage,
  projectUpdater,
  type StateDelivery,
} from './projections.js';
import { projectRecorder } from './recording-state.js';
import { diffState } from './state-diff.js';

export const STATE_BURST_MS = 50;

export function initialState(cacheFolder: string): State {
  return {
    recording: null,
    preRecording: null,
    content: [],
    inputDevices: [],
    outputDevices: [],
    displays: [],
    codecs: [],
    availableCaptureEngineVersions: [],
    gpuVendor: 'Unknown',
    gpuComputeCapability: 0,
    maxDisplayHeight: 1080,
    hasLoadedCaptureEngine: false,
    isCheckingForUpdates: false,
    currentFolderSizeGb: 0,
    recordingDriveUsedGb: null,
    recordingDriveFreeGb: null,
    cacheFolder,
    integrations: {},
    integrationSettings: {},
    integrationPackages: [],
    loading: [],
    captureEngine: null,
    captureInUse: null,
  };
}

type StateListener = (state: Readonly<State>) => void;

/** The features State shows, by what it follows of each. */
export interface StateSources {
  recorder: Pick<RecorderService, 'events'>;
  library: Pick<ContentLibrary, 'events'>;
  capabilities: Pick<MachineCapabilities, 'events' | 'nextCapture'>;
  updater: Pick<Updater, 'events'>;
  storage: Pick<StorageMonitor, 'events'>;
  settings: Pick<SettingsStore, 'current' | 'onChange'>;
  integrations: Pick<IntegrationHost, 'events'>;
  integrationSettings: Pick<IntegrationSettingsSchemas, 'events' | 'all'>;
  startup: Pick<StartupProgress, 'events' | 'loading'>;
}

@injectable()
export class StatePublisher {
  private state: State = initialState('');
  private sent: State = this.state;
  private revision = 0;
  private lastSentAt = 0;
  private cancelPending: (() => void) | undefined;
  private pendingIsImmediate = false;
  private readonly listeners = new Set<StateListener>();

  constructor(@inject(EVENT_SINK) private readonly events: EventSink) {}

  get current(): Readonly<State> {
    return this.state;
  }

  /**
   * Projects the features' domain events into State from now on; returns a function that stops that.
   * Features never write State themselves (nor read it to decide anything).
   */
  follow(sources: Partial<StateSources>): () => void {
    const { recorder, library, capabilities, updater, storage, settings, integrations, integrationSettings, startup } = sources;
    const stops = [
      recorder && projectRecorder(recorder.events, this),
      library && projectLibrary(library, this),
      capabilities && projectCapabilities(capabilities, this),
      capabilities && settings && projectNextCapture(capabilities, settings, this),
      updater && projectUpdater(updater, this),
      storage && projectStorage(storage, this),
      settings && projectSettings(settings, this),
      integrations && projectIntegrations(integrations, this),
      integrationSettings && projectIntegrationSettings(integrationSettings, this),
      integrations && projectIntegrationPackages(integrations, this),
      startup && projectLoading(startup, this),
    ];
    return () => stops.forEach((stop) => stop?.());
  }

  /**
   * Applies a change and schedules one `State` event for the burst it belongs to (for the projections).
   * `prompt`: a change the user is waiting to see (a recording started or stopped, a bookmark) goes out
   * with the current tick's other changes even inside a burst's 50 ms.
   */
  update(change: Partial<State>, delivery: StateDelivery = 'burst'): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener(this.state);
    this.schedule(delivery);
  }

  onChange(listener: StateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends the full `State` now (the answer to `NewConnection` and `RequestState`), cancelling a pending coalesced send. */
  sendNow(): void {
    this.send(false);
  }

  private send(asPatch: boolean): void {
    this.dispose();
    this.lastSentAt = Date.now();
    const [before, after] = [this.sent, this.state];
    const since = asPatch ? { revision: this.revision, patch: () => diffState(before, after) } : undefined;
    this.sent = after;
    this.revision++;
    if (this.events.sendState) this.events.sendState(after, { revision: this.revision, ...(since && { since }) });
    else this.events.send('State', after);
  }

  dispose(): void {
    this.cancelPending?.();
    this.cancelPending = undefined;
  }

  private schedule(delivery: StateDelivery): void {
    if (this.cancelPending && (this.pendingIsImmediate || delivery === 'burst')) return;
    this.dispose();
    const send = () => this.send(true);
    const wait = delivery === 'prompt' ? 0 : this.lastSentAt + STATE_BURST_MS - Date.now();
    this.pendingIsImmediate = wait <= 0;
    if (this.pendingIsImmediate) {
      // setImmediate, so the synchronous changes of one operation still share one event.
      const handle = setImmediate(send);
      this.cancelPending = () => clearImmediate(handle);
    } else {
      const handle = setTimeout(send, wait);
      this.cancelPending = () => clearTimeout(handle);
    }
  }
}
