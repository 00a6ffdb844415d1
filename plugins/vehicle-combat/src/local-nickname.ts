// Finds War Thunder's client logs on this machine and reads the local player's nickname from the newest.
// Read through GameFiles, so that `keyframe tape record` keeps the log beside the tape.
import type { GameFilesService, GamePathsService } from '@keyframe/core';
import path from 'node:path';
import { decodeCombatLog, nicknameInCombatLog } from './combat-log.js';

export const LOG_FOLDER_NAME = '.game_logs';
const INSTALL_FOLDER_NAMES = new Set(['war thunder', 'warthunder']);
/** How far up from the executable's folder to look (`War Thunder/win64/aces.exe` needs one level). */
const MAX_LEVELS_UP = 3;

export type NicknameLookup = { nickname: string; file: string } | { nickname: undefined; reason: string };

/**
 * Where the logs can be, best first: beside the running game (walking up from its executable to the
 * `War Thunder` folder), the launcher's default install, and every Steam library.
 */
export async function logFolderCandidates(executablePath: string | undefined, paths: GamePathsService): Promise<string[]> {
  const folders: string[] = [];
  if (executablePath !== undefined) {
    let folder = path.dirname(executablePath);
    for (let level = 0; level <= MAX_LEVELS_UP; level++) {
      folders.push(path.join(folder, LOG_FOLDER_NAME));
      if (INSTALL_FOLDER_NAMES.has(path.basename(folder).toLowerCase()) || path.dirname(folder) === folder) break;
      folder = path.dirname(folder);
    }
  }
  folders.push(path.join(paths.localAppData(), 'WarThunder', LOG_FOLDER_NAME));
  const libraries = await paths.steamLibraries().catch(() => []);
  for (const library of libraries) folders.push(path.join(library, 'steamapps', 'common', 'War Thunder', LOG_FOLDER_NAME));
  return [...new Set(folders)];
}

/** The nickname in the most recently written `.clog` of all the folders, or why there is none. Never throws. */
export async function readLocalNickname(folders: readonly string[], files: GameFilesService): Promise<NicknameLookup> {
  const newest = await newestLog(folders, files);
  if (newest === undefined) return { nickname: undefined, reason: `no *.clog file in ${folders.join(', ')}` };
  let bytes: Uint8Array;
  try {
    bytes = await files.read(newest);
  } catch (error) {
    return { nickname: undefined, reason: `${newest} cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  const nickname = nicknameInCombatLog(decodeCombatLog(bytes));
  return nickname === undefined ? { nickname, reason: `${newest} names no logged-in player yet` } : { nickname, file: newest };
}

// The newest by modification time: the running game keeps writing its own log (creation times are
// not kept on every Linux file system).
async function newestLog(folders: readonly string[], files: GameFilesService): Promise<string | undefined> {
  let newest: { file: string; modifiedMs: number } | undefined;
  for (const folder of folders) {
    const entries = await files.list(folder).catch(() => []);
    for (const entry of entries.filter(({ name, kind }) => kind === 'file' && name.toLowerCase().endsWith('.clog'))) {
      const modifiedMs = entry.modifiedAt.getTime();
      if (newest === undefined || modifiedMs > newest.modifiedMs) newest = { file: path.join(folder, entry.name), modifiedMs };
    }
  }
  return newest?.file;
}
