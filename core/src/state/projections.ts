// The small projections of the features' domain events into `State`; each follows one feature and
// returns a function that stops following. The recorder's is in recording-state.ts.
import { pathToFileURL } from 'node:url';
import type { MachineCapabilities, SystemDevices } from '../capabilities/machine-capabilities.js';
import { toContentItem } from '../library/content-item.js';
import type { ContentLibrary, ContentRecord } from '../library/content-library.js';
import { toWireAudioDevice } from '../platform/audio-devices.js';
import { maxDisplayHeight, toWireDisplay } from '../platform/displays.js';
import type { IntegrationHost } from '../integrations/integration-host.js';
import { toWirePath, type ContentItem, type Settings, type State } from '../protocol/index.js';
import type { IntegrationSettingsSchemas } from '../settings/integration-settings-schemas.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { toGb, type StorageMonitor } from '../storage/storage-monitor.js';
import type { Updater } from '../updates/updater.js';
import type { StartupProgress } from '../support/startup-progress.js';

/** Where a projection writes: the State publisher. A change replaces what it names: never change `current` in place. */
/** `burst`: at most one State per 50 ms (`STATE_BURST_MS`); `prompt`: at the end of the current tick. */
export type StateDelivery = 'burst' | 'prompt';

export interface StateTarget {
  readonly current: Readonly<State>;
  update(change: Partial<State>, delivery?: StateDelivery): void;
}

/** `State.cacheFolder`: the settings' cache folder, on the wire; published at once. */
export function projectSettings(settings: Pick<SettingsStore, 'current' | 'onChange'>, target: StateTarget): () => void {
  const publish = ({ cacheFolder }: Readonly<Settings>) => target.update({ cacheFolder: toWirePath(cacheFolder) });
  publish(settings.current);
  return settings.onChange(publish, ['cacheFolder']);
}

/** `State.loading`: the parts of the service still starting; published at once. */
export function projectLoading(startup: Pick<StartupProgress, 'events' | 'loading'>, target: StateTarget): () => void {
  target.update({ loading: startup.loading });
  return startup.events.on('changed', (loading) => target.update({ loading: [...loading] }));
}

/**
 * `State.content`: the library's items, newest first. The library replaces a record it changes, so an
 * unchanged record keeps its wire item (the same object: State diffs skip it, its serialised form is kept).
 * A record at the same place as in the last list is matched there, without looking it up.
 */
export function projectLibrary(library: Pick<ContentLibrary, 'events'>, target: StateTarget): () => void {
  const items = new WeakMap<ContentRecord, ContentItem>();
  let last: { records: readonly ContentRecord[]; content: ContentItem[] } = { records: [], content: [] };
  const wireItem = (record: ContentRecord, index: number) => {
    if (last.records[index] === record) return last.content[index]!;
    let item = items.get(record);
    if (!item) items.set(record, (item = toContentItem(record)));
    return item;
  };
  return library.events.on('changed', (records) => {
    const content = records.map(wireItem);
    last = { records: [...records], content }; // a copy: whoever emitted the list may change it later
    target.update({ content });
  });
}

/** The displays, audio devices, GPU, codecs and ffmpeg builds of this machine, and the ffmpeg in use. */
export function projectCapabilities(capabilities: Pick<MachineCapabilities, 'events'>, target: StateTarget): () => void {
  const devices = ({ displays, audio }: SystemDevices): Partial<State> => ({
    displays: displays.map(toWireDisplay),
    maxDisplayHeight: maxDisplayHeight(displays),
    inputDevices: audio.inputs.map(toWireAudioDevice),
    outputDevices: audio.outputs.map(toWireAudioDevice),
  });
  const stops = [
    capabilities.events.on('devicesDetected', (detected) => target.update(devices(detected))),
    capabilities.events.on('loaded', (loaded) =>
      target.update({
        ...devices(loaded.devices),
        codecs: [...loaded.codecs],
        availableCaptureEngineVersions: loaded.builds.map((build) => ({
          version: build.version,
          isBeta: false,
          supportsFrom: null,
          supportsTo: null,
          url: pathToFileURL(build.path).href,
        })),
        gpuVendor: loaded.devices.gpu.vendor,
        gpuComputeCapability: loaded.devices.gpu.computeCapability,
        hasLoadedCaptureEngine: true,
        captureEngine: loaded.captureEngine,
      }),
    ),
  ];
  return () => stops.forEach((stop) => stop());
}

/** The settings that change what the next recording records with. */
const CAPTURE_SETTINGS: readonly (keyof Settings)[] = ['encoder', 'codec', 'rateControl', 'resolution', 'frameRate', 'selectedDisplay'];

/**
 * `State.captureInUse` before the first recording: what the next one would record with, from the
 * machine and the settings. Once a recording started, the recorder's projection shows that one.
 */
export function projectNextCapture(
  capabilities: Pick<MachineCapabilities, 'events' | 'nextCapture'>,
  settings: Pick<SettingsStore, 'current' | 'onChange'>,
  target: StateTarget,
): () => void {
  const publish = () => {
    const shown = target.current.captureInUse;
    if (shown && shown.of !== 'next') return;
    const next = capabilities.nextCapture(settings.current);
    const captureInUse = next && { of: 'next' as const, ...next };
    if (JSON.stringify(captureInUse) !== JSON.stringify(shown)) target.update({ captureInUse });
  };
  const stops = [
    capabilities.events.on('loaded', publish),
    capabilities.events.on('devicesDetected', publish),
    settings.onChange(publish, CAPTURE_SETTINGS),
  ];
  return () => stops.forEach((stop) => stop());
}

/** `State.isCheckingForUpdates`. */
export function projectUpdater(updater: Pick<Updater, 'events'>, target: StateTarget): () => void {
  return updater.events.on('checking', (checking) => target.update({ isCheckingForUpdates: checking }));
}

/** The disk figures, in GB with two decimals; an unchanged measurement sends nothing. */
export function projectStorage(storage: Pick<StorageMonitor, 'events'>, target: StateTarget): () => void {
  return storage.events.on('measured', ({ folderBytes, drive }) => {
    const figures = {
      currentFolderSizeGb: toGb(folderBytes),
      recordingDriveUsedGb: drive ? toGb(drive.usedBytes) : null,
      recordingDriveFreeGb: drive ? toGb(drive.freeBytes) : null,
    };
    const current = target.current;
    if ((Object.keys(figures) as (keyof typeof figures)[]).some((key) => current[key] !== figures[key])) target.update(figures);
  });
}

/** `State.integrationPackages`: the packages that are not simply loaded and well; an unchanged list sends nothing. */
export function projectIntegrationPackages(host: Pick<IntegrationHost, 'events'>, target: StateTarget): () => void {
  return host.events.on('packages', (integrationPackages) => {
    if (JSON.stringify(target.current.integrationPackages) !== JSON.stringify(integrationPackages)) target.update({ integrationPackages });
  });
}

/** `State.integrations`: the host's health map; an unchanged map sends nothing. */
export function projectIntegrations(host: Pick<IntegrationHost, 'events'>, target: StateTarget): () => void {
  return host.events.on('health', (integrations) => {
    if (JSON.stringify(target.current.integrations) !== JSON.stringify(integrations)) target.update({ integrations });
  });
}

/** `State.integrationSettings`: the settings each loaded integration declares, for the settings page. */
export function projectIntegrationSettings(schemas: Pick<IntegrationSettingsSchemas, 'events' | 'all'>, target: StateTarget): () => void {
  target.update({ integrationSettings: schemas.all });
  return schemas.events.on('changed', (integrationSettings) => target.update({ integrationSettings }));
}
