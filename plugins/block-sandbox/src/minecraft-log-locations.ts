// Where the Java Edition client writes `logs/latest.log`: the game folder the user set, the vanilla
// launcher's game folder, and every instance of Prism Launcher. The tail feed follows whichever was written last.
import type { GamePathsService } from '@keyframe/core';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

const LATEST_LOG = ['logs', 'latest.log'] as const;

/** The vanilla launcher's game folder on each system; the others do not exist on a given machine. */
export function vanillaGameFolders(paths: GamePathsService): string[] {
  return unique([
    path.join(paths.roamingAppData(), '.minecraft'), // Windows: %APPDATA%\.minecraft
    path.join(paths.home(), '.minecraft'), // Linux
    path.join(paths.roamingAppData(), 'minecraft'), // macOS: ~/Library/Application Support/minecraft
  ]);
}

/** Prism Launcher's data folder on each system (Windows and macOS, Linux, Linux Flatpak). */
export function prismLauncherFolders(paths: GamePathsService): string[] {
  return unique([
    path.join(paths.roamingAppData(), 'PrismLauncher'),
    path.join(paths.localAppData(), 'PrismLauncher'),
    path.join(paths.home(), '.var', 'app', 'org.prismlauncher.PrismLauncher', 'data', 'PrismLauncher'),
  ]);
}

/** Every candidate `latest.log`: the user's game folder (when set), then vanilla; instances are listed as they are now. */
export async function minecraftLogCandidates(paths: GamePathsService, userGameFolder = ''): Promise<string[]> {
  const userFolders = userGameFolder.trim() === '' ? [] : [userGameFolder.trim()];
  const vanilla = [...userFolders, ...vanillaGameFolders(paths)].map((folder) => path.join(folder, ...LATEST_LOG));
  const instances = (
    await Promise.all(prismLauncherFolders(paths).map((folder) => instanceFolders(path.join(folder, 'instances'))))
  ).flat();
  // Prism keeps an instance's game folder in `.minecraft`, newer releases in `minecraft`.
  const prism = instances.flatMap((instance) => ['.minecraft', 'minecraft'].map((game) => path.join(instance, game, ...LATEST_LOG)));
  return unique([...vanilla, ...prism]);
}

async function instanceFolders(instances: string): Promise<string[]> {
  try {
    const entries = await readdir(instances, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(instances, entry.name))
      .sort();
  } catch {
    return []; // no Prism Launcher here
  }
}

const unique = (items: readonly string[]) => [...new Set(items)];
