// Steam library folders: the Steam installation itself plus every library listed in its
// `steamapps/libraryfolders.vdf`.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseSteamLibraryFolders } from './vdf.js';

/** Where Steam installs itself by default on each platform. */
export function defaultSteamRoots(platform: NodeJS.Platform, home: string, variables: NodeJS.ProcessEnv): string[] {
  if (platform === 'win32') {
    const programFiles = variables['ProgramFiles(x86)'] ?? 'C:\\Program Files (x86)';
    return [path.win32.join(programFiles, 'Steam')];
  }
  if (platform === 'darwin') return [path.posix.join(home, 'Library', 'Application Support', 'Steam')];
  return [
    path.posix.join(home, '.steam', 'steam'),
    path.posix.join(home, '.local', 'share', 'Steam'),
    path.posix.join(home, '.var', 'app', 'com.valvesoftware.Steam', '.local', 'share', 'Steam'),
  ];
}

/** Each root and the libraries its libraryfolders.vdf lists, without duplicates. */
export async function steamLibrariesOf(roots: readonly string[]): Promise<string[]> {
  const libraries = new Set<string>();
  for (const root of roots) {
    let vdf: string;
    try {
      vdf = await readFile(path.join(root, 'steamapps', 'libraryfolders.vdf'), 'utf8');
    } catch {
      continue;
    }
    libraries.add(root);
    for (const library of parseSteamLibraryFolders(vdf)) libraries.add(library);
  }
  return [...libraries];
}
