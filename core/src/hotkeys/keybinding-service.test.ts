import 'reflect-metadata';
import { expect } from 'chai';
import type { BookmarkRequest } from '../sdk/game-integration.js';
import type { Keybinding, RecordingMode } from '../protocol/index.js';
import { EVENT_SINK } from '../protocol/event-sink.js';
import { SettingsStore } from '../settings/settings-store.js';
import { RecordedEvents } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import type { KeyPress } from './key-chords.js';
import { KEY_HOOK_LOADER, type KeyHook, type KeyHookLoad } from './key-hook.js';
import { HOTKEY_BOOKMARKS, HOTKEY_RECORDER, KeybindingService, type HotkeyBookmarks, type HotkeyRecorder } from './keybinding-service.js';

const F8 = 66;
const F9 = 67;
const F10 = 68;
const F11 = 87;
const G = 34;

/** A keyboard hook the test presses keys into. */
class FakeHook implements KeyHook {
  running = false;
  private down: ((press: KeyPress) => void) | undefined;
  private up: ((press: KeyPress) => void) | undefined;

  start(onKeyDown: (press: KeyPress) => void, onKeyUp: (press: KeyPress) => void): void {
    this.running = true;
    this.down = onKeyDown;
    this.up = onKeyUp;
  }

  stop(): void {
    this.running = false;
  }

  /** Down and up, as a tap; `holdRepeats` extra keydowns as a held key repeats. */
  tap(keycode: number, modifiers: Partial<Omit<KeyPress, 'keycode'>> = {}, holdRepeats = 0): void {
    const press = { keycode, ctrlKey: false, altKey: false, shiftKey: false, metaKey: false, ...modifiers };
    for (let count = 0; count <= holdRepeats; count++) this.down?.(press);
    this.up?.(press);
  }
}

class FakeRecorder implements HotkeyRecorder {
  readonly calls: string[] = [];
  current: HotkeyRecorder['current'];
  isRecording = false;

  async start(): Promise<void> {
    this.calls.push('start');
  }
  async stop(): Promise<undefined> {
    this.calls.push('stop');
    return undefined;
  }
  async saveReplayBuffer(): Promise<never> {
    this.calls.push('saveReplayBuffer');
    throw new Error('no buffer in this fake');
  }
  togglePreview(): boolean {
    this.calls.push('togglePreview');
    return true;
  }

  recording(mode: RecordingMode): void {
    this.current = { recordingMode: mode };
  }
}

describe('KeybindingService', () => {
  let app: TestApp;
  let settings: SettingsStore;
  let events: RecordedEvents;
  let recorder: FakeRecorder;
  let bookmarks: BookmarkRequest[];
  let hook: FakeHook;
  let service: KeybindingService;

  const settle = () => new Promise((resolve) => setImmediate(resolve));

  async function startService(load: KeyHookLoad = { hook }): Promise<void> {
    service = app.fresh(KeybindingService, [[KEY_HOOK_LOADER, () => Promise.resolve(load)]]);
    await service.start();
  }

  beforeEach(async () => {
    events = new RecordedEvents();
    recorder = new FakeRecorder();
    bookmarks = [];
    hook = new FakeHook();
    const bookmarkSink: HotkeyBookmarks = {
      add: async (request) => {
        bookmarks.push(request);
        return true;
      },
    };
    app = await createTestApp({
      settings: {},
      overrides: [
        [EVENT_SINK, events],
        [HOTKEY_RECORDER, recorder],
        [HOTKEY_BOOKMARKS, bookmarkSink],
      ],
    });
    settings = app.resolve(SettingsStore);
  });
  afterEach(async () => {
    service.stop();
    await app.dispose();
  });

  it('runs the default F8-F11 actions on the recorder and adds Manual bookmarks', async () => {
    await startService();
    expect(hook.running).to.equal(true);
    recorder.recording('Hybrid');
    recorder.isRecording = true;
    hook.tap(F10);
    hook.tap(F11);
    hook.tap(F8);
    hook.tap(F9);
    await settle();
    expect(recorder.calls).to.deep.equal(['saveReplayBuffer', 'togglePreview', 'stop']);
    expect(bookmarks).to.deep.equal([{ type: 'Manual' }]);
  });

  it('starts a recording with ToggleRecording when nothing records, and fires once per press however long it is held', async () => {
    await startService();
    hook.tap(F9, {}, 5);
    await settle();
    expect(recorder.calls).to.deep.equal(['start']);
  });

  it('adds no bookmark without a recording, nor in Buffer mode', async () => {
    await startService();
    hook.tap(F8);
    recorder.recording('Buffer');
    hook.tap(F8);
    await settle();
    expect(bookmarks).to.deep.equal([]);
  });

  it('applies a rebinding through the settings at once: new chord works, old key does nothing, disabled bindings are ignored', async () => {
    await startService();
    const keybindings: Keybinding[] = settings.current.keybindings.map((binding) => {
      if (binding.action === 'TogglePreview') return { ...binding, keys: [0x11, 0x47] }; // Ctrl+G
      if (binding.action === 'ToggleRecording') return { ...binding, enabled: false };
      return binding;
    });
    settings.replace({ ...settings.current, keybindings });
    hook.tap(F11);
    hook.tap(G);
    hook.tap(G, { ctrlKey: true });
    hook.tap(F9);
    await settle();
    expect(recorder.calls).to.deep.equal(['togglePreview']);
  });

  it('keeps working and logs when a binding is invalid or repeats another one', async () => {
    await startService();
    const keybindings: Keybinding[] = settings.current.keybindings.map((binding) => {
      if (binding.action === 'SaveReplayBuffer') return { ...binding, keys: [0x11] };
      if (binding.action === 'TogglePreview') return { ...binding, keys: [119] }; // F8, as CreateBookmark
      return binding;
    });
    settings.replace({ ...settings.current, keybindings });
    recorder.recording('Session');
    hook.tap(F8);
    hook.tap(F9);
    await settle();
    expect(bookmarks).to.have.length(1);
    expect(recorder.calls).to.deep.equal(['start']);
  });

  it('without a usable hook: says why, and shows it once when someone changes keybindings', async () => {
    await startService({ problem: 'there is no X11 display (DISPLAY is not set)', headless: true });
    expect(service.problem).to.match(/no X11 display/);
    expect(events.of('ShowModal')).to.deep.equal([]);
    settings.replace({ ...settings.current, frameRate: 30, keybindings: structuredClone(settings.current.keybindings) });
    expect(events.of('ShowModal'), 'not a change of keybindings').to.deep.equal([]);
    const keybindings = settings.current.keybindings.map((binding) => ({ ...binding, keys: [0x70] }));
    settings.replace({ ...settings.current, keybindings: keybindings.slice(0, 1) });
    settings.replace({ ...settings.current, keybindings: keybindings.slice(0, 2) });
    const modals = events.of('ShowModal');
    expect(modals).to.have.length(1);
    expect(modals[0]).to.deep.include({ title: 'Hotkeys are not available', type: 'warning' });
    expect(modals[0]!.description).to.include('DISPLAY is not set');
  });

  it('tells the user at start-up when the hook exists but cannot start', async () => {
    const broken: KeyHook = {
      start: () => {
        throw new Error('XRecord extension missing');
      },
      stop: () => undefined,
    };
    await startService({ hook: broken });
    expect(service.problem).to.include('XRecord extension missing');
    expect(events.of('ShowModal')).to.have.length(1);
  });

  it('tells the user at start-up when a desktop session exists but the hook library is unusable', async () => {
    await startService({ problem: 'the keyboard hook could not start (XOpenDisplay failure!)' });
    expect(events.of('ShowModal').map((modal) => modal.description)).to.satisfy(
      (texts: string[]) => texts.length === 1 && texts[0]!.includes('XOpenDisplay'),
    );
  });
});
