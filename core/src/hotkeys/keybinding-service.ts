// Global hotkeys from `settings.keybindings`: each enabled binding's chord triggers its action on
// the recorder (save replay, preview, start/stop) or adds a Manual bookmark. Rebinding through
// UpdateSettings applies at once. Without a usable keyboard hook the feature is off and says why.
import { inject, injectable } from 'tsyringe';
import type { Keybinding, RecordingMode } from '../protocol/index.js';
import type { BookmarkService } from '../recording/bookmark-service.js';
import { Notifier } from '../notices/notifier.js';
import type { RecorderService } from '../recording/recorder-service.js';
import { SettingsStore } from '../settings/settings-store.js';
import { Logger } from '../support/logger.js';
import { chordMatches, chordOf, describeKeys, type KeyChord, type KeyPress } from './key-chords.js';
import { KEY_HOOK_LOADER, type KeyHook, type KeyHookLoader } from './key-hook.js';

/** What hotkeys act on in the recorder. */
export type HotkeyRecorder = Pick<RecorderService, 'isRecording' | 'start' | 'stop' | 'saveReplayBuffer' | 'togglePreview'> & {
  readonly current: { readonly recordingMode: RecordingMode } | undefined;
};
export const HOTKEY_RECORDER = Symbol('HotkeyRecorder');
export type HotkeyBookmarks = Pick<BookmarkService, 'add'>;
export const HOTKEY_BOOKMARKS = Symbol('HotkeyBookmarks');

interface ActiveBinding {
  action: Keybinding['action'];
  chord: KeyChord;
}

@injectable()
export class KeybindingService {
  private readonly logger: Logger;
  private hook: KeyHook | undefined;
  private bindings: ActiveBinding[] = [];
  /** Keys held down: a held key repeats keydown, but an action fires once per press. */
  private readonly held = new Set<number>();
  private unavailableReason: string | undefined;
  private notified = false;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly settings: SettingsStore,
    private readonly notifier: Notifier,
    @inject(HOTKEY_RECORDER) private readonly recorder: HotkeyRecorder,
    @inject(HOTKEY_BOOKMARKS) private readonly bookmarks: HotkeyBookmarks,
    @inject(KEY_HOOK_LOADER) private readonly loadHook: KeyHookLoader,
    logger: Logger,
  ) {
    this.logger = logger.child('keybindings');
  }

  /** Why hotkeys are off (no display, the hook library missing or refused); undefined while they work. */
  get problem(): string | undefined {
    return this.unavailableReason;
  }

  async start(): Promise<void> {
    this.bind(this.settings.current.keybindings);
    this.unsubscribe = this.settings.onChange((next) => this.rebind(next.keybindings), ['keybindings']);
    const loaded = await this.loadHook();
    if ('problem' in loaded) return this.disable(loaded.problem, !loaded.headless);
    try {
      loaded.hook.start(
        (press) => this.keyDown(press),
        (press) => this.held.delete(press.keycode),
      );
    } catch (error) {
      return this.disable(`the keyboard hook could not start: ${error instanceof Error ? error.message : String(error)}`, true);
    }
    this.hook = loaded.hook;
    this.logger.info('global hotkeys active', { bindings: this.describeBindings() });
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    try {
      this.hook?.stop();
    } catch (error) {
      this.logger.warn('the keyboard hook did not stop cleanly', { error });
    }
    this.hook = undefined;
  }

  private rebind(keybindings: Keybinding[]): void {
    this.bind(keybindings);
    this.logger.info('keybindings changed', { bindings: this.describeBindings() });
    // Someone is setting hotkeys up: now is the moment to say they cannot work here.
    this.notifyUnavailable();
  }

  private bind(keybindings: Keybinding[]): void {
    this.held.clear();
    this.bindings = [];
    for (const binding of keybindings.filter((candidate) => candidate.enabled)) {
      const result = chordOf(binding.keys);
      if ('problem' in result) {
        this.logger.warn('keybinding ignored', { action: binding.action, keys: binding.keys, problem: result.problem });
        continue;
      }
      const clash = this.bindings.find((bound) => JSON.stringify(bound.chord) === JSON.stringify(result.chord));
      if (clash) {
        this.logger.warn('keybinding ignored: its keys are already bound', {
          action: binding.action,
          keys: describeKeys(binding.keys),
          boundTo: clash.action,
        });
        continue;
      }
      this.bindings.push({ action: binding.action, chord: result.chord });
    }
  }

  private describeBindings(): Record<string, string> {
    const keysOf = new Map(this.settings.current.keybindings.map((binding) => [binding.action, binding.keys]));
    return Object.fromEntries(this.bindings.map((binding) => [binding.action, describeKeys(keysOf.get(binding.action) ?? [])]));
  }

  /**
   * Logged at once; shown to the user once, when it matters: at start-up where a desktop session
   * exists but the hook failed, otherwise the first time keybindings are changed.
   */
  private disable(reason: string, notifyNow: boolean): void {
    this.unavailableReason = reason;
    this.logger.warn('global hotkeys are unavailable', { reason });
    if (notifyNow) this.notifyUnavailable();
  }

  private notifyUnavailable(): void {
    if (!this.unavailableReason || this.notified) return;
    this.notified = true;
    this.notifier.showModal({
      title: 'Hotkeys are not available',
      description:
        `Keyframe cannot listen for hotkeys on this computer: ${this.unavailableReason}. ` +
        'Use the buttons in Keyframe instead (start/stop, save replay, bookmarks), or run Keyframe in a desktop session.',
      type: 'warning',
    });
  }

  private keyDown(press: KeyPress): void {
    if (this.held.has(press.keycode)) return;
    this.held.add(press.keycode);
    const binding = this.bindings.find((candidate) => chordMatches(candidate.chord, press));
    if (!binding) return;
    this.logger.info('hotkey pressed', { action: binding.action });
    void this.perform(binding.action).catch((error: unknown) => {
      // Refusals (nothing recording, no replay buffer) are normal for a key pressed at the wrong time.
      this.logger.info('hotkey action not done', {
        action: binding.action,
        reason: error instanceof Error ? error.message : String(error),
      });
    });
  }

  private async perform(action: Keybinding['action']): Promise<void> {
    switch (action) {
      case 'SaveReplayBuffer':
        await this.recorder.saveReplayBuffer();
        return;
      case 'TogglePreview':
        this.recorder.togglePreview();
        return;
      case 'CreateBookmark':
        if (!this.recorder.current) throw new Error('no recording is in progress');
        if (this.recorder.current.recordingMode === 'Buffer') throw new Error('a Buffer recording keeps no bookmarks');
        await this.bookmarks.add({ type: 'Manual' }, 'hotkey');
        return;
      case 'ToggleRecording': {
        if (this.recorder.isRecording) await this.recorder.stop();
        else await this.recorder.start();
        return;
      }
    }
  }
}
