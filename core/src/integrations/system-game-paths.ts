// Where games keep their files on this machine. Each location can be overridden by an environment
// variable, which is how tests point integrations at temp folders. The shape is the SDK's `GamePaths`,
// checked where the plugin host hands it out: an OS adapter does not import the plugin contract.
import os from 'node:os';
import path from 'node:path';
import { defaultSteamRoots, steamLibrariesOf } from '../sdk/steam/steam-installation.js';

export class SystemGamePaths {
  constructor(
    private readonly variables: NodeJS.ProcessEnv = process.env,
    private readonly platform: NodeJS.Platform = process.platform,
    private readonly homeFolder: string = os.homedir(),
  ) {}

  /** `KEYFRAME_STEAM_LIBRARIES` (path-list) replaces discovery from the Steam installation. */
  async steamLibraries(): Promise<string[]> {
    const override = this.variables.KEYFRAME_STEAM_LIBRARIES;
    if (override !== undefined) return override.split(path.delimiter).filter(Boolean);
    return steamLibrariesOf(defaultSteamRoots(this.platform, this.homeFolder, this.variables));
  }

  roamingAppData(): string {
    if (this.variables.KEYFRAME_ROAMING_APPDATA) return this.variables.KEYFRAME_ROAMING_APPDATA;
    if (this.platform === 'win32') return this.variables.APPDATA ?? path.win32.join(this.homeFolder, 'AppData', 'Roaming');
    if (this.platform === 'darwin') return path.posix.join(this.homeFolder, 'Library', 'Application Support');
    return this.variables.XDG_CONFIG_HOME || path.posix.join(this.homeFolder, '.config');
  }

  localAppData(): string {
    if (this.variables.KEYFRAME_LOCAL_APPDATA) return this.variables.KEYFRAME_LOCAL_APPDATA;
    if (this.platform === 'win32') return this.variables.LOCALAPPDATA ?? path.win32.join(this.homeFolder, 'AppData', 'Local');
    if (this.platform === 'darwin') return path.posix.join(this.homeFolder, 'Library', 'Application Support');
    return this.variables.XDG_DATA_HOME || path.posix.join(this.homeFolder, '.local', 'share');
  }

  home(): string {
    return this.variables.KEYFRAME_GAME_HOME || this.homeFolder;
  }
}
