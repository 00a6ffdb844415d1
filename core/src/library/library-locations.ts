// Where the library lives: SetVideoLocation (the content folder) and
// SetCacheLocation (sidecars, thumbnails and waveforms move along, then the library re-loads).
import { constants } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../protocol/refusal.js';
import { ARTWORK_FOLDERS } from '../protocol/wire-format.js';
import { PickerUnavailableError } from '../platform/native-picker.js';
import { errorCode } from '../support/file-errors.js';
import { Logger } from '../support/logger.js';
import { isWithin, samePath } from '../support/paths.js';
import { ContentLibrary } from './content-library.js';
import { Notifier } from '../notices/notifier.js';
import { RECORDING_ACTIVITY, SettingsService, type RecordingActivity } from '../settings/settings-service.js';
import { usableFolder, validFolder } from '../settings/valid-folder.js';

/** Shows a folder picker; undefined when the user cancels. Throws `PickerUnavailableError`. */
export type FolderPicker = (title: string) => Promise<string | undefined>;
export const FOLDER_PICKER = Symbol('FolderPicker');

/** What a cache folder holds that must move with it; `recordings` only holds the active recording. */
export const MOVED_CACHE_FOLDERS = ['metadata', ARTWORK_FOLDERS.thumbnail, ARTWORK_FOLDERS.waveform] as const;

@injectable()
export class LibraryLocations {
  private readonly logger: Logger;

  constructor(
    private readonly settings: SettingsService,
    @inject(RECORDING_ACTIVITY) private readonly recorder: RecordingActivity,
    private readonly library: ContentLibrary,
    private readonly notifier: Notifier,
    @inject(FOLDER_PICKER) private readonly pickFolder: FolderPicker,
    logger: Logger,
  ) {
    this.logger = logger.child('storage');
  }

  /**
   * Changes the content folder (checked as UpdateSettings checks it). The storage limit asks before
   * its first deletion in the new folder (StorageMonitor), so nothing is asked here.
   */
  async setVideoLocation(requested?: string): Promise<void> {
    this.refuseWhileRecording('The video location');
    const folder = await this.chooseFolder(requested, 'Choose where Keyframe keeps your videos');
    if (!folder || samePath(folder, this.settings.current.contentFolder)) return this.settings.publish();
    await this.prepareFolder(folder);
    const previous = this.settings.current.contentFolder;
    if (!(await this.settings.update({ contentFolder: folder }))) this.settings.publish();
    this.logger.info('content folder changed', { from: previous, to: folder });
  }

  /** Moves the cache's sub-folders to a new cache folder, switches to it and re-loads the library from there. */
  async setCacheLocation(requested?: string): Promise<void> {
    this.refuseWhileRecording('The cache location');
    const folder = await this.chooseFolder(requested, 'Choose the Keyframe cache folder');
    const current = path.resolve(this.settings.current.cacheFolder);
    if (!folder || samePath(folder, current)) return this.settings.publish();
    for (const name of MOVED_CACHE_FOLDERS) {
      const moved = path.join(current, name);
      if (isWithin(moved, folder)) {
        throw new CommandError(
          'InvalidParameters',
          `The cache cannot move into ${moved}, a folder it moves itself: choose a folder outside it.`,
        );
      }
    }
    await this.prepareFolder(folder);

    const moved: string[] = [];
    try {
      for (const name of MOVED_CACHE_FOLDERS) {
        const source = path.join(current, name);
        if (!(await exists(source))) continue;
        const left = await moveFolder(source, path.join(folder, name));
        if (left.length > 0)
          this.logger.warn('cache files kept in the old cache folder: the new one already holds files of those names', {
            folder: name,
            files: left,
          });
        moved.push(name);
      }
      await this.settings.update({ cacheFolder: folder });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      for (const name of moved.reverse()) {
        await moveFolder(path.join(folder, name), path.join(current, name)).catch((rollbackError: unknown) =>
          this.logger.error('cache folder could not be moved back', { folder: name, error: rollbackError }),
        );
      }
      this.logger.error('cache folder not moved', { from: current, to: folder, error: message });
      const description = `The cache could not be moved to ${folder} (${message}); Keyframe keeps using ${current}.`;
      this.notifier.showModal({ title: 'Cache folder not changed', description, type: 'error' });
      throw new CommandError('Failed', description);
    }
    this.logger.info('cache folder changed', { from: current, to: folder, moved });
    await this.library.load();
  }

  /** The requested folder, or the picker's; undefined when the user cancels. Throws `CommandError`. */
  private async chooseFolder(requested: string | undefined, title: string): Promise<string | undefined> {
    if (requested !== undefined) return validFolder(requested);
    let picked: string | undefined;
    try {
      picked = await this.pickFolder(title);
    } catch (error) {
      if (!(error instanceof PickerUnavailableError)) throw error;
      this.notifier.showModal({ title: 'No folder picker', description: error.message, type: 'error' });
      throw new CommandError('Unavailable', error.message);
    }
    return picked ? validFolder(picked) : undefined;
  }

  /** The check every folder change passes (`usableFolder`), with a dialog: the picker's caller may not show refusals. */
  private async prepareFolder(folder: string): Promise<void> {
    try {
      await usableFolder(folder);
    } catch (error) {
      if (error instanceof CommandError) this.notifier.showModal({ title: 'Folder not usable', description: error.message, type: 'error' });
      throw error;
    }
  }

  private refuseWhileRecording(what: string): void {
    if (!this.recorder.isRecording) return;
    const message = `${what} cannot be changed during a recording. Stop the recording first.`;
    this.notifier.showModal({ title: 'Recording in progress', description: message, type: 'warning' });
    throw new CommandError('NotAllowed', message);
  }
}

/**
 * A rename where possible; else each file copied and its original removed, across drives or into a folder that
 * exists. A file already at the target is never replaced: that one stays where it was, and is logged by the caller.
 * Resolves to the files left behind.
 */
async function moveFolder(source: string, target: string): Promise<string[]> {
  try {
    await rename(source, target);
    return [];
  } catch (error) {
    if (!['EXDEV', 'ENOTEMPTY', 'EEXIST', 'EPERM'].includes(errorCode(error) ?? '')) throw error;
  }
  const left: string[] = [];
  const entries = await readdir(source, { recursive: true, withFileTypes: true });
  for (const entry of entries.filter((candidate) => candidate.isFile())) {
    const from = path.join(entry.parentPath, entry.name);
    const to = path.join(target, path.relative(source, from));
    await mkdir(path.dirname(to), { recursive: true });
    try {
      await copyFile(from, to, constants.COPYFILE_EXCL);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      left.push(from);
      continue;
    }
    await rm(from);
  }
  await removeEmptyFolders(source);
  return left;
}

/** Removes `folder` and the folders below it that hold nothing, deepest first; keeps any that still hold a file. */
async function removeEmptyFolders(folder: string): Promise<void> {
  const folders = (await readdir(folder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort((a, b) => b.length - a.length);
  for (const candidate of [...folders, folder]) await rmdir(candidate).catch(() => undefined);
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );
