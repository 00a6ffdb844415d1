// The runtime State of SPEC: in memory only. Changes are coalesced so that a burst of updates
// produces one `State` event, and a lone change goes out at once (bookmark latency matters).
import { inject, injectable } from 'tsyringe';
import type { State } from '../protocol/index.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';

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
  };
}

type StateListener = (state: Readonly<State>) => void;

@injectable()
export class StatePublisher {
  private state: State = initialState('');
  private lastSentAt = 0;
  private cancelPending: (() => void) | undefined;
  private readonly listeners = new Set<StateListener>();

  constructor(@inject(EVENT_SINK) private readonly events: EventSink) {}

  get current(): Readonly<State> {
    return this.state;
  }

  /** Applies a change and schedules one `State` event for the burst it belongs to. */
  update(change: Partial<State> | ((state: State) => void)): void {
    if (typeof change === 'function') {
      change(this.state);
    } else {
      this.state = { ...this.state, ...change };
    }
    for (const listener of this.listeners) listener(this.state);
    this.schedule();
  }

  onChange(listener: StateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends `State` now (the answer to `NewConnection`), cancelling a pending coalesced send. */
  sendNow(): void {
    this.dispose();
    this.lastSentAt = Date.now();
    this.events.send('State', this.state);
  }

  dispose(): void {
    this.cancelPending?.();
    this.cancelPending = undefined;
  }

  private schedule(): void {
    if (this.cancelPending) return;
    const send = () => this.sendNow();
    const wait = this.lastSentAt + STATE_BURST_MS - Date.now();
    if (wait <= 0) {
      // setImmediate, so the synchronous changes of one operation still share one event.
      const handle = setImmediate(send);
      this.cancelPending = () => clearImmediate(handle);
    } else {
      const handle = setTimeout(send, wait);
      this.cancelPending = () => clearTimeout(handle);
    }
  }
}
