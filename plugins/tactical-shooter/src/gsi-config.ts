// The Game State Integration config that makes Counter-Strike 2 push its state to us, where it goes,
// and how it is installed without ever overwriting a file the user edited.
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** The `<service_name>` of SPEC's "Shooter push configuration": block name and file name suffix. */
export const GSI_SERVICE_NAME = 'keyframe';
export const GSI_CONFIG_FILE_NAME = `gamestate_integration_${GSI_SERVICE_NAME}.cfg`;
export const GSI_PORT = 1340;

/** Where CS2 reads `gamestate_integration_*.cfg` from, relative to a Steam library. */
const GAME_FOLDER = ['steamapps', 'common', 'Counter-Strike Global Offensive', 'game'];
const CONFIG_FOLDER_IN_GAME = ['csgo', 'cfg'];

// The first two lines let us tell our own untouched file (safe to update) from one the user changed.
// ASCII only: the game's KeyValues reader is not where we want to test its encoding handling.
const MARKER_LINE = '// Written by Keyframe - edit freely; Keyframe will not overwrite a file you changed.';
const HASH_PREFIX = '// keyframe-sha256 ';

/** The block itself (SPEC values), in Valve KeyValues text. */
const CONFIG_BODY = [
  `"${GSI_SERVICE_NAME}"`,
  '{',
  `\t"uri"\t\t"http://localhost:${GSI_PORT}/"`,
  '\t"timeout"\t"5.0"',
  '\t"buffer"\t"0.1"',
  '\t"throttle"\t"0.2"',
  '\t"heartbeat"\t"2.0"',
  '\t"data"',
  '\t{',
  '\t\t"player_id"\t\t\t"1"',
  '\t\t"provider"\t\t\t"1"',
  '\t\t"map"\t\t\t\t"1"',
  '\t\t"player_match_stats"\t"1"',
  '\t}',
  '}',
  '',
].join('\n');

/** A config body as a file Keyframe writes: marker line, hash of the body, the body. */
export function stampConfigText(body: string): string {
  return `${MARKER_LINE}\n${HASH_PREFIX}${sha256(body)}\n${body}`;
}

/** The whole file as this version of Keyframe writes it. */
export const GSI_CONFIG_TEXT = stampConfigText(CONFIG_BODY);

/**
 * - `written`: the file was missing, or was an older text of ours that nobody had changed.
 * - `unchanged`: already exactly our text.
 * - `kept-user-edit`: someone changed the file; it is left as it is.
 */
export type InstallConfigResult = 'written' | 'unchanged' | 'kept-user-edit';

/** Installs `GSI_CONFIG_TEXT` as `GSI_CONFIG_FILE_NAME` in `folder` (created if missing). */
export async function installConfig(folder: string): Promise<InstallConfigResult> {
  const text = GSI_CONFIG_TEXT;
  const file = path.join(folder, GSI_CONFIG_FILE_NAME);
  const current = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (current !== undefined) {
    if (normalizeLineEnds(current) === text) return 'unchanged';
    if (!isUntouchedKeyframeText(current)) return 'kept-user-edit';
  }
  await writeFileAtomic(file, text);
  return 'written';
}

/** True when `text` is a file we wrote whose body still matches the hash we wrote with it. */
export function isUntouchedKeyframeText(text: string): boolean {
  const lines = normalizeLineEnds(text).split('\n');
  if (lines[0] !== MARKER_LINE || !lines[1]?.startsWith(HASH_PREFIX)) return false;
  const hash = lines[1].slice(HASH_PREFIX.length).trim();
  return hash === sha256(lines.slice(2).join('\n'));
}

/**
 * The CS2 config folders (`…/game/csgo/cfg`) in these Steam libraries (from `GamePaths`, which
 * already follows `libraryfolders.vdf`), for every library where the game is installed. The `cfg`
 * folder itself need not exist yet; `installConfig` creates it.
 */
export async function findConfigFolders(steamLibraries: readonly string[]): Promise<string[]> {
  const libraries = new Set(steamLibraries.map((library) => path.resolve(library)));
  const folders: string[] = [];
  for (const library of libraries) {
    const folder = await configFolderOfGame(path.join(library, ...GAME_FOLDER));
    if (folder !== undefined) folders.push(folder);
  }
  return folders;
}

/**
 * The config folder for a running game's executable (`…/game/bin/win64/cs2.exe` or
 * `…/game/bin/linuxsteamrt64/cs2` → `…/game/csgo/cfg`), for installs outside known libraries.
 */
export async function configFolderOfExecutable(executablePath: string): Promise<string | undefined> {
  return configFolderOfGame(path.resolve(path.dirname(executablePath), '..', '..'));
}

async function configFolderOfGame(gameFolder: string): Promise<string | undefined> {
  const csgo = path.join(gameFolder, CONFIG_FOLDER_IN_GAME[0]!);
  const isFolder = await stat(csgo).then((info) => info.isDirectory(), () => false);
  return isFolder ? path.join(gameFolder, ...CONFIG_FOLDER_IN_GAME) : undefined;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** An editor that turned our LF into CRLF has not changed anything that matters. */
function normalizeLineEnds(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/**
 * Temp file, fsync, rename: the game never reads half a file. The temp name does not match
 * `gamestate_integration_*.cfg`, so a leftover from a crash is never loaded by the game.
 */
async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
