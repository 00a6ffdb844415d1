// Where a game file lies, in words that hold on another machine: relative to the GamePaths folder it
// lies under (`home/…`, `roaming/…`, `local/…`, `steam/<n>/…` for the n-th Steam library), else its
// absolute path. A tape names its side files so; `tape play --game-paths <folder>` lays folders out so.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { GamePaths } from '../../sdk/game-integration.js';

export class GameFileLocations {
  private constructor(private readonly roots: readonly (readonly [name: string, folder: string])[]) {}

  static async of(paths: GamePaths): Promise<GameFileLocations> {
    const libraries = await paths.steamLibraries().catch(() => []);
    return new GameFileLocations([
      ['home', paths.home()],
      ['roaming', paths.roamingAppData()],
      ['local', paths.localAppData()],
      ...libraries.map((library, index) => [`steam/${index}`, library] as const),
    ]);
  }

  /** The location of an absolute path: under the innermost folder that holds it (local app data lies in home on Linux). */
  locate(file: string): string {
    const absolute = path.resolve(file);
    let best: { name: string; relative: string; depth: number } | undefined;
    for (const [name, folder] of this.roots) {
      const relative = path.relative(path.resolve(folder), absolute);
      if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) continue;
      const depth = path.resolve(folder).length;
      if (!best || depth > best.depth) best = { name, relative, depth };
    }
    if (!best) return absolute;
    return best.relative === '' ? best.name : `${best.name}/${best.relative.split(path.sep).join('/')}`;
  }

  /** Whether the location lies under one of the folders (not an absolute path outside them all). */
  static isUnderGamePaths(location: string): boolean {
    return !path.isAbsolute(location) && !path.win32.isAbsolute(location);
  }
}

/**
 * GamePaths inside one folder, laid out as locations are named: `home/`, `roaming/`, `local/`, and
 * `steam/0/`, `steam/1/`, … for the Steam libraries (the numbered folders there, in order).
 */
export function gamePathsIn(folder: string): GamePaths {
  const root = path.resolve(folder);
  return {
    home: () => path.join(root, 'home'),
    roamingAppData: () => path.join(root, 'roaming'),
    localAppData: () => path.join(root, 'local'),
    steamLibraries: async () => {
      const names = await readdir(path.join(root, 'steam')).catch(() => []);
      return names
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(a) - Number(b))
        .map((name) => path.join(root, 'steam', name));
    },
  };
}
