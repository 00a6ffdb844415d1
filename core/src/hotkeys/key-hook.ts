// The global keyboard hook behind a small interface, so tests can press keys into the keybinding
// service. The native one is uiohook-napi, an optional dependency loaded only when it is needed.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { KeyPress } from './key-chords.js';

export interface KeyHook {
  /** Starts listening system-wide; `onKeyDown` gets every key that goes down (repeats included). Throws when it cannot. */
  start(onKeyDown: (press: KeyPress) => void, onKeyUp: (press: KeyPress) => void): void;
  stop(): void;
}

/** `headless`: no desktop session at all, so nobody expects hotkeys right now. */
export type KeyHookLoad = { hook: KeyHook } | { problem: string; headless?: boolean };
export type KeyHookLoader = () => Promise<KeyHookLoad>;
export const KEY_HOOK_LOADER = Symbol('KeyHookLoader');

interface UiohookModule {
  uIOhook: {
    on(event: 'keydown' | 'keyup', listener: (event: KeyPress) => void): unknown;
    removeAllListeners(event?: string): unknown;
    start(): void;
    stop(): void;
  };
}

/** Whether this desktop session has a keyboard a global hook can listen to; the reason when not. */
export function hookSessionProblem(platform: NodeJS.Platform, variables: NodeJS.ProcessEnv): string | undefined {
  if (platform === 'win32' || platform === 'darwin') return undefined;
  // libuiohook listens through X11 (XRecord); a Wayland session offers it through XWayland's DISPLAY.
  if (!variables.DISPLAY) return 'there is no X11 display (DISPLAY is not set), so keys pressed in games cannot be seen';
  return undefined;
}

/** Loads uiohook-napi; a missing package or prebuilt binary is a problem to report, not a crash. */
export function nativeKeyHookLoader(
  platform: NodeJS.Platform = process.platform,
  variables: NodeJS.ProcessEnv = process.env,
): KeyHookLoader {
  return async () => {
    const sessionProblem = hookSessionProblem(platform, variables);
    if (sessionProblem) return { problem: sessionProblem, headless: true };
    let entry: string;
    try {
      entry = createRequire(import.meta.url).resolve('uiohook-napi');
    } catch (error) {
      return {
        problem: `the keyboard hook library (uiohook-napi) is not installed: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    const trialProblem = await tryHookInChildProcess(entry);
    if (trialProblem) return { problem: trialProblem };
    let loaded: UiohookModule;
    try {
      const module = (await import(pathToFileURL(entry).href)) as UiohookModule & { default?: UiohookModule };
      loaded = module.default ?? module;
    } catch (error) {
      return {
        problem: `the keyboard hook library (uiohook-napi) could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    const native = loaded.uIOhook;
    return {
      hook: {
        start: (onKeyDown, onKeyUp) => {
          native.on('keydown', onKeyDown);
          native.on('keyup', onKeyUp);
          native.start();
        },
        stop: () => {
          native.removeAllListeners('keydown');
          native.removeAllListeners('keyup');
          native.stop();
        },
      },
    };
  };
}

const TRIAL_TIMEOUT_MS = 10_000;

/**
 * Starts and stops the hook once in a throwaway process: libuiohook aborts the whole process when
 * it cannot open the display or lacks the X RECORD extension, which must not end the service.
 */
function tryHookInChildProcess(entry: string): Promise<string | undefined> {
  const script =
    `const m = await import(${JSON.stringify(pathToFileURL(entry).href)}); const hook = (m.default ?? m).uIOhook;` +
    ' hook.start(); setTimeout(() => { hook.stop(); process.exit(0); }, 200);';
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { timeout: TRIAL_TIMEOUT_MS, windowsHide: true },
      (error, _stdout, stderr) => {
        if (!error) return resolve(undefined);
        const detail = stderr.trim().split(/\r?\n/).filter(Boolean).slice(-1)[0] ?? error.message;
        resolve(`the keyboard hook could not start (${detail})`);
      },
    );
  });
}
