// Where the library lives: SetVideoLocation (the content folder, after a storage-limit warning) and
// SetCacheLocation (sidecars, thumbnails and waveforms move along, then the library re-loads).
import { constants } from 'node:fs';
import { access, cp, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../commands/command-error.js';
import { PickerUnavailableError } from '../platform/native-picker.js';
import { Logger } from '../support/logger.js';
import { ContentLibrary } from './content-library.js';
import { Notifier } from './notifier.js';
import { SettingsService } from './settings-service.js';
import { StateStore } from './state-store.js';
import { folderSizeBytes, isInside, StorageMonitor, toGb } from './storage-monitor.js';
import { StorageWarnings } from './storage-warnings.js';
import { validFolder } from './valid-folder.js';

/** Shows a folder picker; undefined when the user cancels. Throws `PickerUnavailableError`. */
export type FolderPicker = (title: string) => Promise<string | undefined>;
export const FOLDER_PICKER = Symbol('FolderPicker');

/** What a cache folder holds that must move with it; `recordings` only holds the active recording. */
export const MOVED_CACHE_FOLDERS = ['metadata', 'thumbnails', 'waveforms'] as const;

@injectable()
export class LibraryLocations {
  private readonly logger: Logger;

  constructor(
    private readonly settings: SettingsService,
    private readonly state: StateStore,
    private readonly library: ContentLibrary,
    private readonly monitor: StorageMonitor,
    private readonly warnings: StorageWarnings,
    private readonly notifier: Notifier,
    @inject(FOLDER_PICKER) private readonly pickFolder: FolderPicker,
    logger: Logger,
  ) {
    this.logger = logger.child('storage');
  }

  /** Changes the content folder; a folder already over the storage limit waits for a `StorageWarning` answer. */
  async setVideoLocation(requested?: string): Promise<void> {
    this.refuseWhileRecording('The video location');
    const folder = await this.chooseFolder(requested, 'Choose where Keyframe keeps your videos');
    if (!folder || samePath(folder, this.settings.current.contentFolder)) return this.settings.publish();
    await this.prepareFolder(folder);

    // The check must not keep anyone from a folder: if it fails, the folder is used.
    const size = await folderSizeBytes(folder).catch(() => undefined);
    const limitGb = this.settings.current.storageLimit;
    if (size !== undefined && size > this.monitor.limitBytes) {
      this.warnings.warn({
        title: 'This folder is over your storage limit',
        description: `${folder} already holds ${toGb(size)} GB, more than your storage limit of ${limitGb} GB. If you use it, Keyframe deletes its oldest `
          + 'sessions and replay buffers in it (older than an hour) until the folder is under the limit; clips, highlights and files Keyframe '
          + 'did not record are kept. You can raise the limit in the settings instead.',
        confirmText: 'Use Folder',
        cancelText: 'Cancel',
        action: 'contentFolder',
        onConfirm: () => this.useContentFolder(folder),
        onCancel: () => this.settings.publish(),
      });
      return;
    }
    this.useContentFolder(folder);
  }

  /** Moves the cache's sub-folders to a new cache folder, switches to it and re-loads the library from there. */
  async setCacheLocation(requested?: string): Promise<void> {
    this.refuseWhileRecording('The cache location');
    const folder = await this.chooseFolder(requested, 'Choose the Keyframe cache folder');
    const current = path.resolve(this.settings.current.cacheFolder);
    if (!folder || samePath(folder, current)) return this.settings.publish();
    for (const name of MOVED_CACHE_FOLDERS) {
      const moved = path.join(current, name);
      if (samePath(folder, moved) || isInside(moved, folder)) {
        throw new CommandError('InvalidParameters', `The cache cannot move into ${moved}, a folder it moves itself: choose a folder outside it.`);
      }
    }
    await this.prepareFolder(folder);

    const moved: string[] = [];
    try {
      for (const name of MOVED_CACHE_FOLDERS) {
        const source = path.join(current, name);
        if (!(await exists(source))) continue;
        await moveFolder(source, path.join(folder, name));
        moved.push(name);
      }
      this.settings.update({ cacheFolder: folder });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      for (const name of moved.reverse()) {
        await moveFolder(path.join(folder, name), path.join(current, name))
          .catch((rollbackError: unknown) => this.logger.error('cache folder could not be moved back', { folder: name, error: rollbackError }));
      }
      this.logger.error('cache folder not moved', { from: current, to: folder, error: message });
      const description = `The cache could not be moved to ${folder} (${message}); Keyframe keeps using ${current}.`;
      this.notifier.showModal({ title: 'Cache folder not changed', description, type: 'error' });
      throw new CommandError('Failed', description);
    }
    this.logger.info('cache folder changed', { from: current, to: folder, moved });
    await this.library.load();
  }

  private useContentFolder(folder: string): void {
    this.refuseWhileRecording('The video location');
    const previous = this.settings.current.contentFolder;
    if (!this.settings.update({ contentFolder: folder })) this.settings.publish();
    this.logger.info('content folder changed', { from: previous, to: folder });
    this.monitor.refreshSoon();
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

  /** Creates the folder if needed and checks that it is a folder Keyframe may write to. */
  private async prepareFolder(folder: string): Promise<void> {
    try {
      await mkdir(folder, { recursive: true });
      if (!(await stat(folder)).isDirectory()) throw new Error('it is a file, not a folder');
      await access(folder, constants.W_OK);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'EACCES' ? 'permission denied' : (error as Error).message;
      const description = `Keyframe cannot use ${folder}: ${reason}. Choose a folder you can write to.`;
      this.notifier.showModal({ title: 'Folder not usable', description, type: 'error' });
      throw new CommandError('Failed', description);
    }
  }

  private refuseWhileRecording(what: string): void {
    const { recording, preRecording } = this.state.current;
    if (!recording && !preRecording) return;
    const message = `${what} cannot be changed during a recording. Stop the recording first.`;
    this.notifier.showModal({ title: 'Recording in progress', description: message, type: 'warning' });
    throw new CommandError('NotAllowed', message);
  }
}

/** A rename where possible; a copy and delete across drives or onto a folder that exists (files there are replaced). */
async function moveFolder(source: string, target: string): Promise<void> {
  try {
    await rename(source, target);
    return;
  } catch (error) {
    if (!['EXDEV', 'ENOTEMPTY', 'EEXIST', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
  await cp(source, target, { recursive: true, force: true, errorOnExist: false });
  await rm(source, { recursive: true, force: true });
}

const exists = (file: string) => stat(file).then(() => true, () => false);

const samePath = (a: string, b: string) => {
  const normal = (file: string) => path.resolve(file).replaceAll('\\', '/');
  return process.platform === 'win32' || process.platform === 'darwin' ? normal(a).toLowerCase() === normal(b).toLowerCase() : normal(a) === normal(b);
};
