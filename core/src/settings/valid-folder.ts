// The one check every folder change passes (UpdateSettings, SetVideoLocation, SetCacheLocation, and a
// settings file read at start): an absolute path without `..` or NUL, not a filesystem root or system
// folder, and — when it is to be used now — a folder that exists or can be made and that Keyframe can
// write to. A content folder of `/` would let /api/content serve every video on the disk.
import { constants } from 'node:fs';
import { access, mkdir, realpath, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CommandError } from '../protocol/refusal.js';
import { isWithin, samePath } from '../support/paths.js';

/** An absolute path without `..` segments, normalised. Throws `CommandError`. */
export function validFolder(text: string): string {
  const shown = JSON.stringify(text);
  if (text.includes('\0')) throw new CommandError('InvalidParameters', `${shown} is not a usable folder path.`);
  if (!path.isAbsolute(text))
    throw new CommandError('InvalidParameters', `${shown} is not an absolute path: send the full path of the folder.`);
  if (text.split(/[\\/]/).includes('..'))
    throw new CommandError('InvalidParameters', `${shown} contains "..": send the folder's path without it.`);
  return path.resolve(text);
}

/** The operating system's own folders: neither they nor anything below them may hold videos or the cache. */
function systemFolders(): string[] {
  if (process.platform === 'win32') {
    const variables = ['SystemRoot', 'ProgramFiles', 'ProgramFiles(x86)', 'ProgramData'];
    return variables.map((name) => process.env[name]).filter((folder): folder is string => Boolean(folder));
  }
  const posix = ['/proc', '/sys', '/dev', '/etc', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/usr', '/boot'];
  return process.platform === 'darwin' ? [...posix, '/System', '/Library', '/private/etc', '/private/var/db'] : posix;
}

/**
 * Folders that hold many people's or many drives' files: they themselves are refused (they would
 * make the library everything in them), folders below them are fine (`/var/tmp/videos`, `/mnt/disk/videos`).
 */
function sharedFolders(home: string): string[] {
  if (process.platform === 'win32') return [home, path.join(path.parse(home).root, 'Users')];
  return [home, '/home', '/Users', '/root', '/var', '/tmp', '/mnt', '/media', '/run', '/opt', '/srv', '/private', '/Volumes'];
}

/** Why `folder` (absolute, resolved) may not hold Keyframe's videos or cache; undefined when its place is fine. */
export function forbiddenPlace(folder: string, home: string = os.homedir()): string | undefined {
  if (path.dirname(folder) === folder) return 'it is the root of a drive';
  const system = systemFolders().find((system) => isWithin(system, folder));
  if (system) return samePath(system, folder) ? 'it is a system folder' : `it is inside the system folder ${system}`;
  if (sharedFolders(home).some((shared) => samePath(shared, folder))) {
    return samePath(home, folder) ? 'it is your whole home folder' : "it holds far more than Keyframe's files";
  }
  return undefined;
}

/**
 * `text` as a folder Keyframe can use now: checked, created if missing, a directory (also where a
 * symbolic link leads), writable. Resolves to the normalised path; throws `CommandError` naming the folder and why.
 */
export async function usableFolder(text: string, home: string = os.homedir()): Promise<string> {
  const folder = validFolder(text);
  const refuse = (reason: string): never => {
    throw new CommandError(
      'InvalidParameters',
      `Keyframe cannot use ${folder}: ${reason}. Choose a folder of your own, such as a Keyframe folder in your Videos folder.`,
    );
  };
  const place = forbiddenPlace(folder, home);
  if (place) refuse(place);
  try {
    await mkdir(folder, { recursive: true });
  } catch (error) {
    refuse(describeFsError(error));
  }
  const real = await realpath(folder).catch((error: unknown) => refuse(describeFsError(error)));
  const realPlace = real === folder ? undefined : forbiddenPlace(real, home);
  if (realPlace) refuse(`it leads to ${real}, and ${realPlace}`);
  if (!(await stat(real)).isDirectory()) refuse('it is a file, not a folder');
  await access(real, constants.W_OK).catch(() => refuse('Keyframe may not write to it (it is read-only)'));
  return folder;
}

/**
 * For a folder read from a settings file at start: why it must not be trusted (a forbidden place,
 * or something that is not a folder). A folder that is missing is fine: its drive may be unplugged.
 */
export async function untrustedFolderReason(text: string, home: string = os.homedir()): Promise<string | undefined> {
  let folder: string;
  try {
    folder = validFolder(text);
  } catch (error) {
    return (error as Error).message;
  }
  const place = forbiddenPlace(folder, home);
  if (place) return place;
  const info = await stat(folder).catch(() => undefined);
  if (info && !info.isDirectory()) return 'it is not a folder';
  const real = await realpath(folder).catch(() => folder);
  return real === folder ? undefined : forbiddenPlace(real, home);
}

const describeFsError = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EEXIST' || code === 'ENOTDIR') return 'it is a file, not a folder';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'Keyframe may not create or write to it (permission denied)';
  return (error as Error).message;
};
