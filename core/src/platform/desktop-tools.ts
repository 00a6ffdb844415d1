// Starting the desktop's own tools (file manager, clipboard helpers): whether the tool exists and how
// it exited. Tools that stay running (xclip serves the selection, explorer keeps its window) are left
// to run once they have had a moment to fail.
import { spawn } from 'node:child_process';

export interface DesktopToolExit {
  /** Exit code; `undefined` when the tool was still running after the grace period (it started). */
  code: number | undefined;
}

export interface DesktopTools {
  readonly platform: NodeJS.Platform;
  readonly variables: NodeJS.ProcessEnv;
  /** Runs `command`, writing `input` to its stdin; undefined when the tool is not installed. */
  run(command: string, args: readonly string[], input?: string): Promise<DesktopToolExit | undefined>;
}
export const DESKTOP_TOOLS = Symbol('DesktopTools');

const GRACE_MS = 5000;

export function systemDesktopTools(platform: NodeJS.Platform = process.platform, variables: NodeJS.ProcessEnv = process.env): DesktopTools {
  return {
    platform,
    variables,
    run: (command, args, input) =>
      new Promise((resolve) => {
        // stdout/stderr ignored: a tool that forks (xclip) would otherwise hold our pipes open.
        const child = spawn(command, [...args], {
          stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'ignore'],
          windowsHide: true,
        });
        const timer = setTimeout(() => {
          child.unref();
          resolve({ code: undefined });
        }, GRACE_MS);
        child.once('error', (error: NodeJS.ErrnoException) => {
          clearTimeout(timer);
          resolve(error.code === 'ENOENT' ? undefined : { code: -1 });
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          resolve({ code: code ?? -1 });
        });
        if (input !== undefined) {
          child.stdin?.on('error', () => undefined);
          child.stdin?.end(input);
        }
      }),
  };
}
