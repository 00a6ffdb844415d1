// Runs the small OS tools that device detection asks (xrandr, pactl, nvidia-smi, PowerShell…):
// their output, or nothing when the tool is not there; never a throw.
import { execFile } from 'node:child_process';
import type { Logger } from '../support/logger.js';

export interface CommandResult {
  stdout: string;
  stderr: string;
  /** Exit code; tools such as `ffmpeg -list_devices` exit 1 and still print what was asked. */
  code: number;
}

/** Undefined when the tool could not be run at all (not installed, timed out). */
export type CommandRunner = (command: string, args: readonly string[]) => Promise<CommandResult | undefined>;

const COMMAND_TIMEOUT_MS = 10_000;

/**
 * Runs commands with `LC_ALL=C` (pactl and xrandr translate their labels). A missing tool is
 * logged once at debug: on a machine without PulseAudio that is normal, not a fault.
 */
export function systemCommandRunner(logger?: Logger, timeoutMs = COMMAND_TIMEOUT_MS): CommandRunner {
  const reported = new Set<string>();
  const note = (command: string, problem: string) => {
    if (reported.has(command)) return;
    reported.add(command);
    logger?.debug('system tool not usable', { command, problem });
  };
  return (command, args) =>
    new Promise((resolve) => {
      execFile(
        command,
        [...args],
        {
          timeout: timeoutMs,
          maxBuffer: 16 * 1024 * 1024,
          windowsHide: true,
          encoding: 'utf8',
          env: { ...process.env, LC_ALL: 'C' },
        },
        (error, stdout, stderr) => {
          if (!error) return resolve({ stdout, stderr, code: 0 });
          const failure = error as NodeJS.ErrnoException & { code?: string | number; killed?: boolean };
          if (typeof failure.code === 'number') return resolve({ stdout, stderr, code: failure.code });
          note(command, failure.killed ? `no answer within ${timeoutMs} ms` : failure.message);
          resolve(undefined);
        },
      );
    });
}
