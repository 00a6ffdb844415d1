// Steam on this machine: where it is installed, its library folders, the user signed in last, and where
// a game is installed. Found from GamePaths (so tests and `tape play --game-paths` point it elsewhere)
// and read through GameFiles (so `tape record` keeps the files it read).
import path from 'node:path';
import type { GameFiles } from '../game-files.js';
import type { GamePaths } from '../game-integration.js';
import { parseVdf, vdfValue, type VdfObject } from './vdf.js';

/** A Steam account as loginusers.vdf lists it. */
export interface SteamUser {
  /** The 64-bit SteamID, as a decimal string (it does not fit a JavaScript number). */
  steamId64: string;
  accountName: string;
  personaName: string;
}

export interface SteamInstallationOptions {
  /** Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Where Windows' `ProgramFiles(x86)` and `ProgramFiles` are read; default `process.env`. */
  environment?: NodeJS.ProcessEnv;
}

const WINDOWS_DEFAULT_ROOT = 'C:\\Program Files (x86)\\Steam';

export class SteamInstallation {
  private readonly platform: NodeJS.Platform;
  private readonly environment: NodeJS.ProcessEnv;

  constructor(
    private readonly paths: Pick<GamePaths, 'home' | 'steamLibraries'>,
    private readonly files: GameFiles,
    options: SteamInstallationOptions = {},
  ) {
    this.platform = options.platform ?? process.platform;
    this.environment = options.environment ?? process.env;
  }

  /**
   * Where Steam installs itself, most likely first: on Windows the Program Files folders (the registry
   * is not read); on Linux `~/.steam/steam`, `~/.local/share/Steam` and the Flatpak's; on macOS
   * `~/Library/Application Support/Steam`.
   */
  candidateRoots(): string[] {
    const home = this.paths.home();
    if (this.platform === 'win32') {
      const programFiles = [this.environment['ProgramFiles(x86)'], this.environment.ProgramFiles].filter((folder) => folder !== undefined);
      return [...new Set([...programFiles.map((folder) => path.win32.join(folder, 'Steam')), WINDOWS_DEFAULT_ROOT])];
    }
    if (this.platform === 'darwin') return [path.posix.join(home, 'Library', 'Application Support', 'Steam')];
    return [
      path.posix.join(home, '.steam', 'steam'),
      path.posix.join(home, '.local', 'share', 'Steam'),
      path.posix.join(home, '.var', 'app', 'com.valvesoftware.Steam', '.local', 'share', 'Steam'),
    ];
  }

  /** The first candidate root that holds a Steam installation (its `steamapps` folder), if any. */
  async root(): Promise<string | undefined> {
    for (const root of this.candidateRoots()) if (await this.files.exists(this.join(root, 'steamapps'))) return root;
    return undefined;
  }

  /**
   * Every installed root and the libraries its `steamapps/libraryfolders.vdf` lists (the current
   * layout, `"0" { "path" "…" }`, and the one before 2021, `"1" "D:\\SteamLibrary"`), without duplicates.
   */
  async libraryFolders(): Promise<string[]> {
    const libraries = new Set<string>();
    for (const root of this.candidateRoots()) {
      const listed = await this.readVdf(this.join(root, 'steamapps', 'libraryfolders.vdf'));
      if (listed === undefined) continue;
      libraries.add(root);
      for (const library of libraryPaths(listed)) libraries.add(library);
    }
    return [...libraries];
  }

  /** The account signed in most recently (`MostRecent` in `config/loginusers.vdf`, else the newest `Timestamp`). */
  async activeUser(): Promise<SteamUser | undefined> {
    const root = await this.root();
    const listed = root === undefined ? undefined : await this.readVdf(this.join(root, 'config', 'loginusers.vdf'));
    const users = blockOf(listed, 'users');
    if (users === undefined) return undefined;
    const accounts = Object.entries(users).filter((entry): entry is [string, VdfObject] => typeof entry[1] === 'object');
    const number = (account: VdfObject, key: string) => Number(vdfValue(account, key) ?? 0) || 0;
    const [steamId64, account] =
      accounts.find(([, candidate]) => number(candidate, 'MostRecent') === 1) ??
      accounts.sort(([, a], [, b]) => number(b, 'Timestamp') - number(a, 'Timestamp'))[0] ??
      [];
    if (steamId64 === undefined || account === undefined) return undefined;
    const text = (key: string) => {
      const value = vdfValue(account, key);
      return typeof value === 'string' ? value : '';
    };
    return { steamId64, accountName: text('AccountName'), personaName: text('PersonaName') };
  }

  /**
   * The folder a game is installed in, by its Steam app id: `steamapps/common/<installdir>` of the
   * first library in `GamePaths.steamLibraries()` whose `steamapps/appmanifest_<id>.acf` names it.
   */
  async gameFolder(appId: number | string): Promise<string | undefined> {
    const libraries = await this.paths.steamLibraries().catch(() => []);
    for (const library of libraries) {
      const manifest = blockOf(await this.readVdf(this.join(library, 'steamapps', `appmanifest_${appId}.acf`)), 'AppState');
      const installDir = vdfValue(manifest, 'installdir');
      if (typeof installDir === 'string' && installDir.trim() !== '') return this.join(library, 'steamapps', 'common', installDir);
    }
    return undefined;
  }

  private join(...parts: string[]): string {
    return (this.platform === 'win32' ? path.win32 : path).join(...parts);
  }

  /** The file's KeyValues, or undefined when it cannot be read. */
  private async readVdf(file: string): Promise<VdfObject | undefined> {
    return this.files.readText(file).then(parseVdf, () => undefined);
  }
}

/** The block under `key` at the top of a file (its case ignored). */
function blockOf(file: VdfObject | undefined, key: string): VdfObject | undefined {
  const block = vdfValue(file, key);
  return typeof block === 'object' ? block : undefined;
}

/** The library folders in a libraryfolders.vdf, in file order. */
function libraryPaths(file: VdfObject): string[] {
  const folders: string[] = [];
  for (const top of Object.values(file)) {
    if (typeof top !== 'object') continue;
    for (const [key, entry] of Object.entries(top)) {
      if (!/^\d+$/.test(key)) continue;
      const folder = typeof entry === 'string' ? entry : vdfValue(entry, 'path');
      if (typeof folder === 'string' && folder.trim() !== '') folders.push(folder);
    }
  }
  return folders;
}
