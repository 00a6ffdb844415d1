// Where a per-user application keeps its data and where videos go by default, per operating system.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const APP_FOLDER_NAME = 'keyframe';

export interface Environment {
  readonly platform: NodeJS.Platform;
  readonly home: string;
  readonly variables: NodeJS.ProcessEnv;
}

export const currentEnvironment = (): Environment => ({ platform: process.platform, home: os.homedir(), variables: process.env });

/** The per-user configuration folder of the OS, plus the application's own folder. */
export function defaultDataFolder(environment: Environment = currentEnvironment()): string {
  const { platform, home, variables } = environment;
  if (platform === 'win32') return path.win32.join(variables.APPDATA ?? path.win32.join(home, 'AppData', 'Roaming'), 'Keyframe');
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'Keyframe');
  return path.posix.join(variables.XDG_CONFIG_HOME || path.posix.join(home, '.config'), APP_FOLDER_NAME);
}

/** The user's Videos folder (Movies on macOS, the XDG videos directory on Linux) plus `Keyframe`. */
export function defaultContentFolder(environment: Environment = currentEnvironment()): string {
  const { platform, home, variables } = environment;
  if (platform === 'win32') return path.win32.join(variables.USERPROFILE ?? home, 'Videos', 'Keyframe');
  if (platform === 'darwin') return path.posix.join(home, 'Movies', 'Keyframe');
  return path.posix.join(xdgVideosFolder(environment) ?? path.posix.join(home, 'Videos'), 'Keyframe');
}

/** `XDG_VIDEOS_DIR` from `user-dirs.dirs`, which desktop Linux systems localise (e.g. `~/Vidéos`). */
function xdgVideosFolder({ home, variables }: Environment): string | undefined {
  const configHome = variables.XDG_CONFIG_HOME || path.posix.join(home, '.config');
  let text: string;
  try {
    text = readFileSync(path.posix.join(configHome, 'user-dirs.dirs'), 'utf8');
  } catch {
    return undefined;
  }
  const match = /^XDG_VIDEOS_DIR="([^"]+)"/m.exec(text);
  if (!match?.[1]) return undefined;
  const folder = match[1].replace(/^\$HOME/, home);
  return folder === home || !path.posix.isAbsolute(folder) ? undefined : folder;
}
