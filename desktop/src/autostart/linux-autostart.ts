// Start with the computer on Linux: an XDG autostart entry, $XDG_CONFIG_HOME/autostart/keyframe.desktop.
import os from 'node:os';
import path from 'node:path';
import type { AutostartFile } from './autostart-file.js';
import type { LaunchCommand } from './launch-command.js';

export function linuxAutostartFile(command: LaunchCommand, env: NodeJS.ProcessEnv = process.env): AutostartFile {
  const configHome = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  const ownerLine = 'X-Keyframe-Autostart=true';
  const text = [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Keyframe',
    'Comment=Records your games in the background',
    `Exec=${desktopExec([command.executable, ...command.args])}`,
    'Terminal=false',
    'Hidden=false',
    'X-GNOME-Autostart-enabled=true',
    ownerLine,
    '',
  ].join('\n');
  return { path: path.join(configHome, 'autostart', 'keyframe.desktop'), text, ownerLine };
}

/**
 * The Exec key of the Desktop Entry specification: an argument with a reserved character is double-quoted with
 * `"`, `` ` ``, `$` and `\` escaped inside; `%` is doubled (field codes); then the value's own escaping doubles `\`.
 */
export function desktopExec(argv: readonly string[]): string {
  const quoted = argv.map((argument) =>
    /^[A-Za-z0-9_\-+=.,/:@%]+$/.test(argument) ? argument : `"${argument.replace(/["`$\\]/g, (character) => `\\${character}`)}"`,
  );
  return quoted.join(' ').replace(/%/g, '%%').replace(/\\/g, '\\\\');
}
