// The command an autostart entry runs: the packaged launcher when Keyframe runs from an installation (the launcher
// of the install root, which updates keep in place while versions/ changes), else this Node and this entry script.
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
  exists?: (file: string) => boolean;
}

export function autostartCommand(
  { env, platform, nodePath, entryScript, exists = existsSync }: LaunchContext,
  minimised: boolean,
): LaunchCommand {
  const appArgs = ['--app', ...(minimised ? ['--minimised'] : [])];
  const root = env[INSTALL_ROOT_VARIABLE];
  const launcher = root && path.join(root, platform === 'win32' ? 'keyframe.exe' : 'keyframe');
  if (launcher && exists(launcher)) return { executable: launcher, args: appArgs };
  return { executable: nodePath, args: [entryScript, ...appArgs] };
}
