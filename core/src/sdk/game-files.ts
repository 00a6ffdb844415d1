// How an integration reads a game's files outside its feeds (a client log for the player's name, a
// Steam manifest). Live it reads the disk; `keyframe tape record` keeps a copy of every file read
// beside the tape, and a replay serves those copies, so a tape holds everything the integration saw.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** One entry of a listed folder. */
export interface GameFileEntry {
  name: string;
  kind: 'file' | 'folder';
  /** Bytes (0 for a folder). */
  size: number;
  modifiedAt: Date;
}

/** Reads game files; each method takes an absolute path (e.g. built from `GamePaths`). */
export interface GameFiles {
  /** The file's bytes; rejects as `fs.readFile` does (`code` `ENOENT` when there is no such file). */
  read(file: string): Promise<Buffer>;
  /** The file as text (default `utf8`). */
  readText(file: string, encoding?: BufferEncoding): Promise<string>;
  /** Whether a file or folder is there. Never rejects. */
  exists(file: string): Promise<boolean>;
  /** The files and folders directly in `folder`, by name; rejects as `fs.readdir` does. */
  list(folder: string): Promise<GameFileEntry[]>;
}

/** The error a read of a missing file rejects with, the same live and on replay. */
export function missingGameFile(file: string, operation: 'open' | 'scandir'): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: no such file or directory, ${operation} '${file}'`), {
    code: 'ENOENT',
    errno: -2,
    syscall: operation,
    path: file,
  });
}

/** True for the errors of a path that is not there (or runs through a file). */
export function isMissingFileError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** A base for a GameFiles of one's own (a test's stand-in): `readText` on top of `read`. */
export abstract class GameFilesReader implements GameFiles {
  abstract read(file: string): Promise<Buffer>;
  abstract exists(file: string): Promise<boolean>;
  abstract list(folder: string): Promise<GameFileEntry[]>;

  async readText(file: string, encoding: BufferEncoding = 'utf8'): Promise<string> {
    return (await this.read(file)).toString(encoding);
  }
}

/** The files on this machine's disk: what integrations read under the service (and in their own tests). */
export class DiskGameFiles extends GameFilesReader {
  read(file: string): Promise<Buffer> {
    return readFile(file);
  }

  async exists(file: string): Promise<boolean> {
    return stat(file).then(
      () => true,
      () => false,
    );
  }

  async list(folder: string): Promise<GameFileEntry[]> {
    const names = (await readdir(folder)).sort();
    const entries: GameFileEntry[] = [];
    for (const name of names) {
      // Gone since readdir, or a dangling link: not an entry one could read.
      const info = await stat(path.join(folder, name)).catch(() => undefined);
      if (!info || (!info.isFile() && !info.isDirectory())) continue;
      entries.push({ name, kind: info.isFile() ? 'file' : 'folder', size: info.isFile() ? info.size : 0, modifiedAt: info.mtime });
    }
    return entries;
  }
}
