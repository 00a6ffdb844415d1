// Applies the start-with-the-computer settings (`runOnStartup`, `startupWindowMode`) with the per-user mechanism of
// the OS: when they change, and at every start, so an entry of an install that moved is rewritten.
import type { Settings } from '@keyframe/core/protocol';
import { runCommand, type CommandPlan } from '../os/command-plan.js';
import { applyAutostartFile } from './autostart-file.js';
import type { AutostartOutcome } from './autostart-outcome.js';
import { autostartCommand, type LaunchContext } from './launch-command.js';
import { linuxAutostartFile } from './linux-autostart.js';
import { macLaunchAgentFile } from './mac-launch-agent.js';
import { parseRunKeyQuery, RUN_KEY, RUN_VALUE, runKeyPlan, runKeyQuery } from './windows-run-key.js';

export type AutostartSettings = Pick<Settings, 'runOnStartup' | 'startupWindowMode'>;

export async function applyAutostart(
  settings: AutostartSettings,
  context: LaunchContext,
  run: (plan: CommandPlan) => Promise<string> = runCommand,
): Promise<AutostartOutcome> {
  const command = autostartCommand(context, settings.startupWindowMode === 'Minimized');
  if (context.platform === 'darwin') return applyAutostartFile(settings.runOnStartup, macLaunchAgentFile(command));
  if (context.platform !== 'win32') return applyAutostartFile(settings.runOnStartup, linuxAutostartFile(command, context.env));
  const existing = await run(runKeyQuery()).then(parseRunKeyQuery, () => undefined);
  const plan = runKeyPlan(settings.runOnStartup, command, existing);
  const entry = `${RUN_KEY}\\${RUN_VALUE}`;
  if ('foreign' in plan) return { kind: 'foreign', entry };
  for (const step of plan.commands) await run(step);
  if (plan.commands.length === 0) return { kind: 'unchanged', entry };
  return { kind: settings.runOnStartup ? 'written' : 'removed', entry };
}
