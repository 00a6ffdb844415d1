// Where games keep their files on this machine: the GamePaths the host hands integrations. Each
// location can be overridden by an environment variable, which is how tests point integrations at
// temp folders; Steam's libraries are found by the SDK's Steam helper from the home folder.
import os from 'node:os';
import path from 'node:path';
import { DiskGameFiles } from '../sdk/game-files.js';
import type { GamePaths } from '../sdk/game-integration.js';
import { SteamInstallation } from '../sdk/steam/steam-installation.js';

export class SystemGamePaths implements GamePaths {
  constructor(
    private readonly variables: NodeJS.ProcessEnv = process.env,
    private readonly platform: NodeJS.Platform = process.platform,
    private readonly homeFolder: string = os.homedir(),
  ) {}

  /** `KEYFRAME_STEAM_LIBRARIES` (path-list) replaces discovery from the Steam installation. */
  async steamLibraries(): Promise<string[]> {
    const override = this.variables.KEYFRAME_STEAM_LIBRARIES;
    if (override !== undefined) return override.split(path.delimiter).filter(Boolean);
    return new SteamInstallation(this, new DiskGameFiles(), { platform: this.platform, environment: this.variables }).libraryFolders();
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
