// Turns what a frontend names (a file name and type, a file path) into a library item or a path the
// service may touch. Every path must resolve inside the content folder — after following symbolic
// links — and, where an item is meant, be one the library lists; anything else is refused with a
// `CommandError` before a single file is touched.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { injectable } from 'tsyringe';
import { CommandError } from '../protocol/refusal.js';
import type { ContentType } from '../protocol/index.js';
import { isWithin, samePath } from '../support/paths.js';
import { ContentLibrary, type ContentRecord } from './content-library.js';
import { SettingsStore } from '../settings/settings-store.js';

@injectable()
export class ContentLocator {
  constructor(
    private readonly settings: SettingsStore,
    private readonly library: ContentLibrary,
  ) {}

  /** The item with this `fileName` (no extension) and type. */
  byFileName(fileName: string, type: ContentType): ContentRecord {
    const item = this.library.list().find((entry) => entry.type === type && entry.fileName === fileName);
    if (!item) throw new CommandError('NotFound', `There is no ${type} named "${fileName}" in the library.`);
    return item;
  }

  /** The first item with this `fileName`, whatever its type. */
  byAnyFileName(fileName: string): ContentRecord {
    const item = this.library.list().find((entry) => entry.fileName === fileName);
    if (!item) throw new CommandError('NotFound', `There is no video named "${fileName}" in the library.`);
    return item;
  }

  /** The item whose video is at `filePath` (and of `type`, when given). Refuses paths outside the content folder. */
  async byFilePath(filePath: string, type?: ContentType): Promise<ContentRecord> {
    const resolved = await this.insideContent(filePath);
    const item = this.library
      .list()
      .find(
        (entry) =>
          (samePath(entry.filePath, resolved) || samePath(entry.filePath, filePath)) && (type === undefined || entry.type === type),
      );
    if (!item) throw new CommandError('NotFound', `${filePath} is not ${type ? `a ${type} ` : ''}in the library.`);
    return item;
  }

  /**
   * `filePath` as an absolute path inside the content folder, symbolic links followed; refused
   * (`NotAllowed`) when it lies anywhere else, (`NotFound`) when nothing is there.
   */
  async insideContent(filePath: string): Promise<string> {
    if (typeof filePath !== 'string' || filePath.trim() === '' || filePath.includes('\0')) {
      throw new CommandError('InvalidParameters', 'A file path is required.');
    }
    if (!path.isAbsolute(filePath)) throw new CommandError('NotAllowed', `${filePath} is not an absolute path inside the content folder.`);
    const root = await realpath(this.settings.current.contentFolder).catch(() => path.resolve(this.settings.current.contentFolder));
    const lexical = path.resolve(filePath);
    if (!isWithin(root, lexical) && !isWithin(path.resolve(this.settings.current.contentFolder), lexical)) {
      throw new CommandError(
        'NotAllowed',
        `${filePath} is outside the content folder: Keyframe only touches files in ${this.settings.current.contentFolder}.`,
      );
    }
    const real = await realpath(lexical).catch(() => undefined);
    if (real === undefined) throw new CommandError('NotFound', `There is no file at ${filePath}.`);
    if (!isWithin(root, real)) {
      throw new CommandError(
        'NotAllowed',
        `${filePath} leads outside the content folder (a link to ${real}): Keyframe only touches files in ${this.settings.current.contentFolder}.`,
      );
    }
    return real;
  }
}
