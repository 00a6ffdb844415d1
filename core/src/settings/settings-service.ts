// The rules around settings changes: merge, validate (an integration's own fields against the schema
// it declares), refuse integration changes during a recording, apply presets, and echo `Settings` to the frontend only when something changed.
import path from 'node:path';
import { inject, injectable, type InjectionToken } from 'tsyringe';
import { Value } from '#typebox';
import { CommandError } from '../protocol/refusal.js';
import { Settings, describeProblems, type PresetName, type SettingsChanges } from '../protocol/index.js';
import { ServiceOptions } from '../service-options.js';
import { Logger } from '../support/logger.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { deepFrozen } from '../protocol/event-frame.js';
import { Notifier } from '../notices/notifier.js';
import { clipPresetChanges, videoPresetChanges } from './presets.js';
import { SettingsStore } from './settings-store.js';
import { CAPTURE_CAPABILITIES, type CaptureCapabilitiesProvider } from '../media/capture-source.js';
import { usableFolder } from './valid-folder.js';
import { settingProblems } from './integration-settings-schema.js';
import { IntegrationSettingsSchemas } from './integration-settings-schemas.js';

/** Whether a recording is starting, running or being saved: the recorder answers (settings sit below it). */
export interface RecordingActivity {
  readonly isRecording: boolean;
}
export const RECORDING_ACTIVITY: InjectionToken<RecordingActivity> = Symbol('RecordingActivity');

/** Migration-only fields: a frontend echoing them back must not resurrect them. */
const LEGACY_FIELDS = ['whitelist', 'blacklist'] as const;
const FOLDER_FIELDS = ['contentFolder', 'cacheFolder'] as const;

@injectable()
export class SettingsService {
  private readonly logger: Logger;
  /** The `Settings` content last sent, and the settings it shows. */
  private published: { settings: Readonly<Settings>; content: Readonly<Settings> } | undefined;

  constructor(
    private readonly store: SettingsStore,
    @inject(RECORDING_ACTIVITY) private readonly recorder: RecordingActivity,
    @inject(CAPTURE_CAPABILITIES) private readonly machine: CaptureCapabilitiesProvider,
    private readonly notifier: Notifier,
    private readonly options: ServiceOptions,
    @inject(EVENT_SINK) private readonly events: EventSink,
    private readonly integrationSchemas: IntegrationSettingsSchemas,
    logger: Logger,
  ) {
    this.logger = logger.child('settings');
  }

  get current(): Readonly<Settings> {
    return this.store.current;
  }

  /**
   * Merges `changes` into the settings; resolves to whether anything changed. A new content or cache
   * folder must pass `usableFolder` (the same check as SetVideoLocation / SetCacheLocation). Throws `CommandError`.
   */
  async update(changes: SettingsChanges): Promise<boolean> {
    const incoming = this.knownFields(changes);
    this.refuseAllowedOriginsChange(incoming);
    this.validated(incoming);
    for (const folder of FOLDER_FIELDS) {
      const requested = incoming[folder];
      if (typeof requested !== 'string' || requested === this.store.current[folder]) continue;
      try {
        await usableFolder(requested);
      } catch (error) {
        if (error instanceof CommandError)
          throw new CommandError(error.code, `Settings not saved: ${folder} ${JSON.stringify(requested)} refused. ${error.message}`);
        throw error;
      }
    }
    // Merged again after the folder checks, so that a change saved meanwhile is kept.
    const next = this.validated(incoming);
    if (Value.Equal(next, this.store.current)) return false;
    this.commit(next);
    return true;
  }

  /** The current settings with `incoming` merged in, checked. Throws `CommandError`. */
  private validated(incoming: Record<string, unknown>): Settings {
    const next = mergeSettings(this.store.current, incoming);
    const problems = describeProblems(Settings, next);
    if (problems.length > 0) throw new CommandError('InvalidParameters', `Settings not saved: ${problems.join('; ')}`);
    for (const folder of FOLDER_FIELDS) {
      if (!path.isAbsolute(next[folder]))
        throw new CommandError('InvalidParameters', `Settings not saved: ${folder} must be an absolute path`);
    }
    this.refuseInvalidIntegrationSettings(next);
    this.refuseIntegrationChangeWhileRecording(next);
    return next;
  }

  /**
   * Which web origins may connect is for the person starting Keyframe to say, not for a connected
   * page: a page allowed in once must not be able to let itself (or another) in for good.
   */
  private refuseAllowedOriginsChange(incoming: Record<string, unknown>): void {
    if (!('allowedOrigins' in incoming)) return;
    if (!Value.Equal(incoming.allowedOrigins, this.effectiveAllowedOrigins)) {
      this.logger.warn('UpdateSettings: allowedOrigins refused (read-only over the WebSocket)', { requested: incoming.allowedOrigins });
      throw new CommandError(
        'NotAllowed',
        'Settings not saved: allowedOrigins cannot be changed over the WebSocket. ' +
          'Start Keyframe with --allowed-origin <origin> (repeatable) or KEYFRAME_ALLOWED_ORIGINS=<origin,origin> to allow a web origin.',
      );
    }
    delete incoming.allowedOrigins; // the list as sent in Settings, echoed back: nothing to change
  }

  /** The origins allowed besides the service's own, from the command line and environment. */
  private get effectiveAllowedOrigins(): string[] {
    return [...this.options.allowedOrigins];
  }

  /** Only fields this version knows are taken; legacy and unknown ones are logged and dropped. */
  private knownFields(changes: SettingsChanges): Record<string, unknown> {
    const known = Object.fromEntries(
      Object.entries(changes).filter(
        ([field]) => Object.hasOwn(Settings.properties, field) && !(LEGACY_FIELDS as readonly string[]).includes(field),
      ),
    );
    const ignored = Object.keys(changes).filter((field) => !Object.hasOwn(known, field));
    if (ignored.length > 0) this.logger.info('UpdateSettings: ignored fields this version does not take', { fields: ignored });
    return known;
  }

  applyVideoPreset(preset: PresetName): void {
    this.applyPreset(videoPresetChanges(preset, this.machine.maxDisplayHeight));
  }

  applyClipPreset(preset: PresetName): void {
    this.applyPreset(clipPresetChanges(preset));
  }

  /**
   * A preset always answers with `Settings`; one that changes nothing (applied again) stores, saves and
   * notifies nothing, so a burst of the same preset does not wake every settings listener each time.
   */
  private applyPreset(changes: SettingsChanges): void {
    const current = this.store.current as Record<string, unknown>;
    if (Object.entries(changes).every(([field, value]) => Value.Equal(current[field], value))) return this.publish();
    this.commit(mergeSettings(this.store.current, changes));
  }

  /**
   * Sends `Settings`; `allowedOrigins` shows the effective, read-only list (a value in the file is not trusted).
   * The content is made once per settings version and frozen, so the connection serialises it once too.
   */
  publish(): void {
    const settings = this.store.current;
    if (this.published?.settings !== settings)
      this.published = { settings, content: deepFrozen(structuredClone({ ...settings, allowedOrigins: this.effectiveAllowedOrigins })) };
    this.events.send('Settings', this.published.content);
  }

  private commit(next: Settings): void {
    this.store.replace(next);
    this.publish();
  }

  /** An integration's own fields are checked against the schema it declares (one not loaded yet is not checked). */
  private refuseInvalidIntegrationSettings(next: Settings): void {
    const current = this.store.current.gameIntegrations;
    const problems = Object.entries(next.gameIntegrations).flatMap(([key, entry]) => {
      const schema = this.integrationSchemas.get(key);
      return schema ? settingProblems(key, schema, entry, current[key]) : [];
    });
    if (problems.length > 0) throw new CommandError('InvalidParameters', `Settings not saved: ${problems.join('; ')}`);
  }

  /** Switching an integration, or changing its own settings, would change what a running recording bookmarks. */
  private refuseIntegrationChangeWhileRecording(next: Settings): void {
    if (!this.recorder.isRecording) return;
    const current = this.store.current.gameIntegrations;
    const changed = Object.keys(next.gameIntegrations).filter((key) => !sameIntegrationSetting(current[key], next.gameIntegrations[key]));
    if (changed.length === 0) return;
    const toggled = changed.every((key) => (current[key]?.enabled ?? true) !== next.gameIntegrations[key]?.enabled);
    const what = toggled ? 'switched on or off' : 'switched on or off or have their settings changed';
    const message = `Game integrations cannot be ${what} during a recording (${changed.join(', ')}). Stop the recording first.`;
    this.logger.warn('integration change refused during a recording', { integrations: changed });
    this.notifier.showModal({ title: 'Recording in progress', description: message, type: 'warning' });
    throw new CommandError('NotAllowed', message);
  }
}

/** An entry missing from the file is `{enabled: true}`: sending that back is no change. */
function sameIntegrationSetting(current: object | undefined, next: object | undefined): boolean {
  return Value.Equal(current ?? { enabled: true }, next ?? { enabled: true });
}

/** Forward slashes, as every path on the wire (protocol-gaps.md §1). */
/** Plain objects merge key by key (so `{gameIntegrations: {x: {enabled: false}}}` works); anything else replaces. */
export function mergeSettings(current: Settings, changes: Record<string, unknown>): Settings {
  return mergeValue(current, changes) as Settings;
}

function mergeValue(current: unknown, change: unknown): unknown {
  if (!isPlainObject(current) || !isPlainObject(change)) return structuredClone(change);
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(change)) {
    if (value !== undefined) merged[key] = mergeValue(current[key], value);
  }
  return merged;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
