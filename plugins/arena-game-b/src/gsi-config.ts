// The Game State Integration config that makes Dota 2 push its state to us, where it goes, and how
// it is installed without touching a file that is already there.
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const GSI_PORT = 1341;
export const GSI_CONFIG_FILE_NAME = 'gamestate_integration_keyframe.cfg';
/** Dota 2 only reads the config folder when started with this option (Steam → Properties → Launch options). */
export const GSI_LAUNCH_OPTION = '-gamestateintegration';

/** Where Dota 2 is installed in a Steam library, and where it reads the config from inside `game`. */
const GAME_FOLDER = ['steamapps', 'common', 'dota 2 beta', 'game'];
const CONFIG_FOLDER_IN_GAME = ['dota', 'cfg', 'gamestate_integration'];

// buffer + throttle bound how late a push arrives after the change (0.2 s: well inside ±0.5 s);
// the heartbeat keeps a menu that changes nothing from looking like a game that sends nothing.
// Only the blocks the tracker reads: every extra block is bytes parsed ten times a second.
export const GSI_CONFIG_TEXT = [
  '// Written by Keyframe: Dota 2 sends its state to Keyframe so that kills, deaths and assists are bookmarked.',
  `// Dota 2 reads it only when started with the launch option ${GSI_LAUNCH_OPTION}.`,
  '"keyframe"',
  '{',
  `\t"uri"\t\t"http://127.0.0.1:${GSI_PORT}/"`,
  '\t"timeout"\t"5.0"',
  '\t"buffer"\t"0.1"',
  '\t"throttle"\t"0.1"',
  '\t"heartbeat"\t"10.0"',
  '\t"data"',
  '\t{',
  '\t\t"provider"\t"1"',
  '\t\t"map"\t\t"1"',
  '\t\t"player"\t"1"',
  '\t}',
  '}',
  '',
].join('\n');

/**
 * - `written`: the file was missing.
 * - `unchanged`: already exactly our text (line ends aside).
 * - `kept-existing`: a different file with our name is there (edited by the user, or written by an
 *   older Keyframe); it is left as it is.
 */
export type InstallConfigResult = 'written' | 'unchanged' | 'kept-existing';

/** Installs `GSI_CONFIG_TEXT` as `GSI_CONFIG_FILE_NAME` in `folder` (created if missing). */
export async function installConfig(folder: string): Promise<InstallConfigResult> {
  const file = path.join(folder, GSI_CONFIG_FILE_NAME);
  const current = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (current !== undefined) return current.replace(/\r\n/g, '\n') === GSI_CONFIG_TEXT ? 'unchanged' : 'kept-existing';

  await mkdir(folder, { recursive: true });
  // Written beside it under a name the game does not load, then renamed: the game never reads half a file.
  const temporary = path.join(folder, `.${GSI_CONFIG_FILE_NAME}.${process.pid}.tmp`);
  try {
    await writeFile(temporary, GSI_CONFIG_TEXT, 'utf8');
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return 'written';
}

/**
 * The config folders (`…/dota 2 beta/game/dota/cfg/gamestate_integration`) in these Steam libraries
 * (from `GamePaths`, which already follows `libraryfolders.vdf`), for every library where the game is
 * installed. The folder itself need not exist yet; `installConfig` creates it.
 */
export async function findConfigFolders(steamLibraries: readonly string[]): Promise<string[]> {
  const folders: string[] = [];
  for (const library of new Set(steamLibraries.map((library) => path.resolve(library)))) {
    const folder = await configFolderOfGame(path.join(library, ...GAME_FOLDER));
    if (folder !== undefined) folders.push(folder);
  }
  return folders;
}

/**
 * The config folder for a running game's executable (`…/game/bin/win64/dota2.exe` or
 * `…/game/bin/linuxsteamrt64/dota2` → `…/game/dota/cfg/gamestate_integration`), for installs
 * outside the known libraries.
 */
export async function configFolderOfExecutable(executablePath: string): Promise<string | undefined> {
  return configFolderOfGame(path.resolve(path.dirname(executablePath), '..', '..'));
}

async function configFolderOfGame(gameFolder: string): Promise<string | undefined> {
  const dota = path.join(gameFolder, CONFIG_FOLDER_IN_GAME[0]!);
  const isFolder = await stat(dota).then((info) => info.isDirectory(), () => false);
  return isFolder ? path.join(gameFolder, ...CONFIG_FOLDER_IN_GAME) : undefined;
}
