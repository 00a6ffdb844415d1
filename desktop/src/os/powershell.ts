// Windows PowerShell (5.1, on every Windows 10 and 11) running a script of ours.
import type { CommandPlan } from './command-plan.js';

/** -EncodedCommand takes base64 of UTF-16LE: no quoting rules of cmd or PowerShell apply to the script. */
export const encodePowerShell = (script: string) => Buffer.from(script, 'utf16le').toString('base64');

/** `env` carries the data: a script reads it as $env:NAME, so names of games and clips are never code. */
export function powerShellCommand(script: string, env?: Record<string, string>, { sta = false } = {}): CommandPlan {
  return {
    file: 'powershell.exe',
    args: [
      '-NoProfile',
      '-NonInteractive',
      '-ExecutionPolicy',
      'Bypass',
      ...(sta ? ['-STA'] : []),
      '-EncodedCommand',
      encodePowerShell(script),
    ],
    ...(env && { env }),
  };
}
