// Start with the computer on Windows: the value "Keyframe" under the per-user Run key, through reg.exe. Planning
// functions return the exact commands; a value of that name that does not start Keyframe's app is left alone.
import type { CommandPlan } from '../os/command-plan.js';
import type { LaunchCommand } from './launch-command.js';

export const RUN_KEY = 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run';
export const RUN_VALUE = 'Keyframe';

export const runKeyQuery = (): CommandPlan => ({ file: 'reg', args: ['query', RUN_KEY, '/v', RUN_VALUE] });

/** The value's data from `reg query` output; undefined when the value does not exist (reg then fails). */
export function parseRunKeyQuery(output: string): string | undefined {
  const line = output.split(/\r?\n/).find((candidate) => candidate.trim().startsWith(`${RUN_VALUE} `));
  return line?.match(/REG(?:_EXPAND)?_SZ\s+(.*)$/)?.[1]?.trim();
}

export type RunKeyPlan = { commands: CommandPlan[] } | { foreign: string };

export function runKeyPlan(enabled: boolean, command: LaunchCommand, existing: string | undefined): RunKeyPlan {
  if (existing !== undefined && !isKeyframeEntry(existing)) return { foreign: existing };
  // The program always in quotes: Windows would try `C:\Program` first for an unquoted path with a space.
  const wanted = `"${command.executable}" ${windowsCommandLine(command.args)}`.trimEnd();
  if (!enabled) return { commands: existing === undefined ? [] : [{ file: 'reg', args: ['delete', RUN_KEY, '/v', RUN_VALUE, '/f'] }] };
  if (existing === wanted) return { commands: [] };
  return { commands: [{ file: 'reg', args: ['add', RUN_KEY, '/v', RUN_VALUE, '/t', 'REG_SZ', '/d', wanted, '/f'] }] };
}

/** Keyframe's entries run an installation's keyframe.exe, or Node with a Keyframe entry script and --app. */
const isKeyframeEntry = (data: string) => /^"[^"]*\\keyframe\.exe"/i.test(data) || (/keyframe/i.test(data) && /\s--app(\s|$)/.test(data));

/** A command line as Windows programs split it (CommandLineToArgvW): quotes where needed, `\` before `"` doubled. */
export function windowsCommandLine(argv: readonly string[]): string {
  return argv
    .map((argument) =>
      argument !== '' && !/[\s"]/.test(argument) ? argument : `"${argument.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`,
    )
    .join(' ');
}
