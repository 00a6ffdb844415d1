// A config file an integration puts into a game's own folders (e.g. Valve's gamestate_integration_*.cfg):
// where the game reads it, and how it is installed so that an untouched file of ours is updated, a
// file the user changed is kept, and the game never reads half a file.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../support/atomic-file.js';
import type { GamePaths, PluginLogger } from './game-integration.js';

/**
 * - `written`: the file was missing, or was an older text of ours that nobody had changed.
 * - `unchanged`: already exactly our text (line ends aside).
 * - `kept-user-edit`: someone changed the file, or Keyframe did not write it; it is left as it is.
 * - `kept-stale-user-edit`: the same, but the file lacks the options' `required` text, so the game
 *   will not work with it until the user adds it (or deletes the file for Keyframe to write it again).
 */
export type GameConfigInstallResult = 'written' | 'unchanged' | 'kept-user-edit' | 'kept-stale-user-edit';

/** What `installForGame` did, folder by folder; the integration words it for the user. */
export interface GameConfigInstallReport {
  /** Every folder where the game reads the file: the Steam libraries' and the running game's. */
  readonly folders: readonly string[];
  readonly written: readonly string[];
  /** Every folder whose file was kept, `keptStaleUserEdits` included. */
  readonly keptUserEdits: readonly string[];
  /** The folders whose kept file lacks the `required` text: the user must act. */
  readonly keptStaleUserEdits: readonly string[];
  readonly failed: ReadonlyArray<{ readonly folder: string; readonly error: Error }>;
  /** Why the Steam libraries could not be listed; the running game's folder is still tried. */
  readonly librariesError?: Error;
}

export interface GameConfigFileOptions {
  /** The file's name in the config folder, e.g. `gamestate_integration_keyframe.cfg`. */
  readonly fileName: string;
  /** What the game should read, with LF line ends; two stamp lines are written above it. */
  readonly body: string;
  /** How a line comment starts in the game's config syntax (the stamp lines are comments). */
  readonly lineComment: string;
  /** The game's folder inside a Steam library, e.g. `['steamapps', 'common', 'Dota 2 beta', 'game']`. */
  readonly gameFolderInLibrary: readonly string[];
  /** How many folders the executable sits below the game folder (`game/bin/win64/cs2.exe`: 2). */
  readonly executableDepth: number;
  /**
   * The config folder inside the game folder, e.g. `['csgo', 'cfg']`. Its first folder must exist
   * (it shows the game is installed there); the rest is created when the file is written.
   */
  readonly configFolderInGame: readonly string[];
  /**
   * Text a file must hold for the game to work with this version (e.g. the push token): a user's file
   * without it is still kept, but reported as stale.
   */
  readonly required?: string;
}

export class GameConfigFile {
  readonly fileName: string;
  /** The whole file as this version of Keyframe writes it: marker line, hash of the body, the body. */
  readonly text: string;
  readonly #markerLine: string;
  readonly #hashPrefix: string;

  constructor(private readonly options: GameConfigFileOptions) {
    if (options.configFolderInGame.length === 0) throw new Error(`${options.fileName}: configFolderInGame is empty`);
    this.fileName = options.fileName;
    // ASCII only: a game's config reader is not where we want to test its encoding handling.
    this.#markerLine = `${options.lineComment} Written by Keyframe - edit freely; Keyframe will not overwrite a file you changed.`;
    this.#hashPrefix = `${options.lineComment} keyframe-sha256 `;
    this.text = this.stamp(options.body);
  }

  /** A body as Keyframe writes it; an older body stamped this way is what an earlier version wrote. */
  stamp(body: string): string {
    return `${this.#markerLine}\n${this.#hashPrefix}${sha256(body)}\n${body}`;
  }

  /** True when `text` is a file Keyframe wrote whose body still matches the hash written with it. */
  isUntouched(text: string): boolean {
    const lines = normalizeLineEnds(text).split('\n');
    if (lines[0] !== this.#markerLine || !lines[1]?.startsWith(this.#hashPrefix)) return false;
    return lines[1].slice(this.#hashPrefix.length).trim() === sha256(lines.slice(2).join('\n'));
  }

  /** Installs `text` as `fileName` in `folder` (created if missing); throws the file system's error. */
  async install(folder: string): Promise<GameConfigInstallResult> {
    const file = path.join(folder, this.fileName);
    const current = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (current !== undefined) {
      if (normalizeLineEnds(current) === this.text) return 'unchanged';
      if (!this.isUntouched(current)) {
        const { required } = this.options;
        return required === undefined || current.includes(required) ? 'kept-user-edit' : 'kept-stale-user-edit';
      }
    }
    // Temp file + rename: the game never reads half a file, and the temp name (`….cfg.tmp-…`) never
    // matches the name pattern a game loads, so a leftover from a crash is not read either.
    await writeFileAtomic(file, this.text);
    return 'written';
  }

  /**
   * The config folders in these Steam libraries (from `GamePaths`, which already follows
   * `libraryfolders.vdf`), one for every library where the game is installed.
   */
  async foldersInLibraries(steamLibraries: readonly string[]): Promise<string[]> {
    const folders: string[] = [];
    for (const library of new Set(steamLibraries.map((library) => path.resolve(library)))) {
      const folder = await this.folderInGame(path.join(library, ...this.options.gameFolderInLibrary));
      if (folder !== undefined) folders.push(folder);
    }
    return folders;
  }

  /** The config folder for a running game's executable, for installs outside the known libraries. */
  async folderOfExecutable(executablePath: string): Promise<string | undefined> {
    const up = Array<string>(this.options.executableDepth).fill('..');
    return this.folderInGame(path.resolve(path.dirname(executablePath), ...up));
  }

  /**
   * Installs the file wherever the game is: every Steam library that has it, and beside
   * `executablePath` when given. Never throws: the report says what failed, for the integration to tell.
   */
  async installForGame(paths: GamePaths, executablePath?: string): Promise<GameConfigInstallReport> {
    const folders = new Set<string>();
    let librariesError: Error | undefined;
    try {
      for (const folder of await this.foldersInLibraries(await paths.steamLibraries())) folders.add(folder);
    } catch (error) {
      librariesError = asError(error);
    }
    if (executablePath !== undefined) {
      const folder = await this.folderOfExecutable(executablePath);
      if (folder !== undefined) folders.add(folder);
    }

    const written: string[] = [];
    const keptUserEdits: string[] = [];
    const keptStaleUserEdits: string[] = [];
    const failed: Array<{ folder: string; error: Error }> = [];
    for (const folder of folders) {
      try {
        const result = await this.install(folder);
        if (result === 'written') written.push(folder);
        if (result === 'kept-user-edit' || result === 'kept-stale-user-edit') keptUserEdits.push(folder);
        if (result === 'kept-stale-user-edit') keptStaleUserEdits.push(folder);
      } catch (error) {
        failed.push({ folder, error: asError(error) });
      }
    }
    return { folders: [...folders], written, keptUserEdits, keptStaleUserEdits, failed, ...(librariesError ? { librariesError } : {}) };
  }

  /**
   * Logs what `installForGame` did in words for the user, `gameName` as they know it. `failedEverywhere`:
   * the game was found but the file could be written into none of its folders (the user must write it).
   */
  logReport(report: GameConfigInstallReport, gameName: string, logger: PluginLogger): { failedEverywhere: boolean } {
    if (report.librariesError !== undefined) {
      logger.warn(`Could not list the Steam libraries to find ${gameName}: ${report.librariesError.message}`);
    }
    if (report.folders.length === 0) {
      logger.info(`${gameName} was not found in any Steam library; ${this.fileName} will be written when the game is detected`);
      return { failedEverywhere: false };
    }
    for (const folder of report.keptUserEdits) {
      if (report.keptStaleUserEdits.includes(folder)) {
        logger.warn(
          `Kept the ${this.fileName} that is already there, but it lacks what this version of Keyframe needs: ${this.staleAdvice(gameName)}`,
          { folder },
        );
      } else {
        logger.info(`Kept the ${this.fileName} that is already there: changed since Keyframe wrote it, or not written by Keyframe`, {
          folder,
        });
      }
    }
    for (const { folder, error } of report.failed) {
      logger.warn(`Could not write ${this.fileName}: ${error.message}. Create it by hand as described in the integration's README.`, {
        folder,
      });
    }
    if (report.written.length > 0) logger.info(`Wrote ${this.fileName}`, { folders: report.written });
    return { failedEverywhere: report.failed.length === report.folders.length };
  }

  /**
   * What a user with a stale file of their own must do, without quoting `required` (it may be a
   * secret, and health and logs are not the place for one).
   */
  staleAdvice(gameName: string): string {
    return `delete ${this.fileName} so that Keyframe writes it again (then copy your own changes into the new file), and restart ${gameName}.`;
  }

  private async folderInGame(gameFolder: string): Promise<string | undefined> {
    const [top, ...rest] = this.options.configFolderInGame;
    const isFolder = await stat(path.join(gameFolder, top!)).then(
      (info) => info.isDirectory(),
      () => false,
    );
    return isFolder ? path.join(gameFolder, top!, ...rest) : undefined;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** An editor that turned our LF into CRLF has not changed anything that matters. */
function normalizeLineEnds(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
