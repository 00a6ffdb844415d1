// The command an autostart entry runs: the launcher of the installation when Keyframe runs from one (it stays at the
// install root while updates change versions/), else this Node with this entry script and `--app`.
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface LaunchCommand {
  executable: string;
  args: string[];
}

/** Set by the launcher for the service it runs (core/src/updates/install-root.ts). */
const INSTALL_ROOT_VARIABLE = 'KEYFRAME_INSTALL_ROOT';

export interface LaunchContext {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** process.execPath and process.argv[1]: how this process was started. */
  nodePath: string;
  entryScript: string;
  /** The data folder of this Keyframe: the entry starts the same one (a second install or a checkout has its own). */
  dataFolder: string;
  exists?: (file: string) => boolean;
}

export function autostartCommand(
  { env, platform, nodePath, entryScript, dataFolder, exists = existsSync }: LaunchContext,
  minimised: boolean,
): LaunchCommand {
  const appArgs = ['--data-dir', dataFolder, ...(minimised ? ['--minimised'] : [])];
  const root = env[INSTALL_ROOT_VARIABLE];
  const launcher = root && path.join(root, platform === 'win32' ? 'keyframe.exe' : 'keyframe');
  // The launcher starts the app by default; what follows `--` goes to the app (core/src/updates/launcher-cli.ts).
  if (root && launcher && exists(launcher)) return { executable: launcher, args: ['--root', root, '--', ...appArgs] };
  return { executable: nodePath, args: [entryScript, '--app', ...appArgs] };
}
