// The service's own registrations in a container for tests (NestJS's `Test.createTestingModule`): a test names the
// tokens it replaces and resolves the rest exactly as the app wires them, instead of calling constructors by position.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { container as rootContainer, type ClassProvider, type DependencyContainer, type InjectionToken } from 'tsyringe';
import { registerServices } from '../app/registrations.js';
import { EXECUTABLE_PICKER } from '../commands/game-commands.js';
import { PROCESS_LISTER } from '../games/game-detector.js';
import { KEY_HOOK_LOADER } from '../hotkeys/key-hook.js';
import { MULTI_FILE_PICKER } from '../jobs/import/import-service.js';
import { FOLDER_PICKER } from '../library/library-locations.js';
import { FfmpegToolboxConfig } from '../media/ffmpeg-toolbox.js';
import { DESKTOP_TOOLS } from '../platform/desktop-tools.js';
import { browserTab, DESKTOP_WINDOW } from '../platform/desktop-window.js';
import type { Settings } from '../protocol/index.js';
import { ServiceOptions } from '../service-options.js';
import { SettingsStore } from '../settings/settings-store.js';
import { GAME_MODE_REGISTRY } from '../settings/windows-game-mode-setting.js';
import { DEFAULT_STORAGE_MONITOR_OPTIONS, STORAGE_MONITOR_OPTIONS } from '../storage/storage-monitor.js';
import { Logger } from '../support/logger.js';
import { UPDATE_OPTIONS } from '../updates/update-options.js';

/** One replacement: the token (or class) and the instance to resolve for it. */
export type Override<T> = readonly [InjectionToken<T>, T];
/** A list of replacements, each value checked against its own token. */
export type Overrides<T extends readonly unknown[]> = { readonly [K in keyof T]: readonly [InjectionToken<T[K]>, NoInfer<T[K]>] };

export interface TestAppOptions<T extends readonly unknown[]> {
  /** Registered over the service's own registrations, e.g. `[[EVENT_SINK, recorded], [RecorderService, fakeRecorder]]`. */
  overrides?: Overrides<T>;
  /** The data folder; default: a new temporary folder that `dispose` removes. Videos go to `<dataFolder>/Videos`. */
  dataFolder?: string;
  /** When given, settings are loaded from the data folder (defaults when there is no file) and these changes applied. */
  settings?: Partial<Settings>;
}

export interface TestApp {
  readonly container: DependencyContainer;
  readonly dataFolder: string;
  resolve<T>(token: InjectionToken<T>): T;
  /**
   * A new instance of `service`, not the app's singleton, over the app's other services (e.g. one restarted). `overrides`
   * reach it and any app singleton first made for it: resolve those before when they must not see them.
   */
  fresh<C, const T extends readonly unknown[] = []>(service: ClassProvider<C>['useClass'], overrides?: Overrides<T>): C;
  /** Disposes what the container made (State's timer), writes pending settings, removes a temporary data folder. */
  dispose(): Promise<void>;
}

/**
 * Builds the service's registrations in a new child container, with inert machine adapters (no native dialog,
 * no key hook, no desktop tool, no running game, no update channel, ffmpeg found without a display) and a silent
 * log, then `overrides` on top. Nothing starts: a test starts what it tests. Events go to the real WebSocket hub, which
 * has no connection: override `EVENT_SINK` with a `RecordedEvents` to see them.
 */
export async function createTestApp<const T extends readonly unknown[] = []>(options: TestAppOptions<T> = {}): Promise<TestApp> {
  const ownsFolder = options.dataFolder === undefined;
  const dataFolder = options.dataFolder ?? (await mkdtemp(path.join(os.tmpdir(), 'keyframe-test-app-')));
  const container = rootContainer.createChildContainer();
  registerServices(container, {
    options: new ServiceOptions(dataFolder, 0, undefined, [], path.join(dataFolder, 'Videos')),
    logger: new Logger([]),
  });
  registerInertMachine(container, dataFolder);
  registerOverrides(container, options.overrides);

  const settingsStores = new Set<SettingsStore>();
  container.afterResolution(SettingsStore, (_token, store) => void settingsStores.add(store as SettingsStore), { frequency: 'Always' });
  if (options.settings) {
    const settings = container.resolve(SettingsStore);
    await settings.load();
    settings.replace({ ...settings.current, ...options.settings });
  }
  return {
    container,
    dataFolder,
    resolve: (token) => container.resolve(token),
    fresh(service, overrides) {
      const scope = container.createChildContainer();
      registerOverrides(scope, overrides);
      scope.register(service, { useClass: service });
      return scope.resolve(service);
    },
    async dispose() {
      await container.dispose();
      for (const store of settingsStores) await store.flush();
      if (ownsFolder) await rm(dataFolder, { recursive: true, force: true });
    },
  };
}

function registerOverrides<T extends readonly unknown[]>(container: DependencyContainer, overrides: Overrides<T> | undefined): void {
  for (const [token, value] of (overrides ?? []) as readonly Override<unknown>[]) container.register(token, { useValue: value });
}

const noDialog = (token: string) => () => Promise.reject(new Error(`no native dialog in tests: override ${token}`));

function registerInertMachine(container: DependencyContainer, dataFolder: string): void {
  container.register(EXECUTABLE_PICKER, { useValue: noDialog('EXECUTABLE_PICKER') });
  container.register(MULTI_FILE_PICKER, { useValue: noDialog('MULTI_FILE_PICKER') });
  container.register(FOLDER_PICKER, { useValue: noDialog('FOLDER_PICKER') });
  container.register(PROCESS_LISTER, { useValue: () => Promise.resolve([]) });
  container.register(DESKTOP_TOOLS, { useValue: { platform: process.platform, variables: {}, run: () => Promise.resolve(undefined) } });
  container.register(DESKTOP_WINDOW, { useValue: browserTab });
  container.register(KEY_HOOK_LOADER, { useValue: () => Promise.resolve({ problem: 'no key hook in tests', headless: true }) });
  container.register(UPDATE_OPTIONS, { useValue: { feedUrl: undefined, installRoot: undefined, rolledBackFrom: undefined } });
  container.register(STORAGE_MONITOR_OPTIONS, { useValue: { ...DEFAULT_STORAGE_MONITOR_OPTIONS } });
  container.register(GAME_MODE_REGISTRY, { useValue: 'none' });
  container.register(FfmpegToolboxConfig, { useValue: headlessToolboxConfig(dataFolder) });
}

/** ffmpeg as this process finds it, without a display: the machine's own screen and devices stay out of the results. */
export function headlessToolboxConfig(home: string): FfmpegToolboxConfig {
  return Object.assign(new FfmpegToolboxConfig(), {
    environment: { platform: process.platform, home, variables: { ...process.env, DISPLAY: undefined, WAYLAND_DISPLAY: undefined } },
  });
}
