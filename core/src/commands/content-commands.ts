// Library commands: rename, delete, bookmarks, favourites, and showing or copying a file on the desktop.
import path from 'node:path';
import { injectable } from 'tsyringe';
import { Clipboard } from '../platform/clipboard.js';
import { FileManager } from '../platform/file-manager.js';
import { ServiceOptions } from '../service-options.js';
import { ContentEditor } from '../library/content-editor.js';
import { ContentLibrary } from '../library/content-library.js';
import { ContentLocator } from '../library/content-locator.js';
import { SettingsStore } from '../settings/settings-store.js';
import { Logger } from '../support/logger.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class ContentCommands implements CommandGroup {
  constructor(
    private readonly editor: ContentEditor,
    private readonly locator: ContentLocator,
    private readonly files: FileManager,
    private readonly clipboard: Clipboard,
    private readonly options: ServiceOptions,
    private readonly settings: SettingsStore,
    private readonly library: ContentLibrary,
    private readonly logger: Logger,
  ) {}

  readonly handlers: CommandHandlers = {
    RenameContent: async ({ FileName, ContentType, Title }) => {
      await this.editor.rename(FileName, ContentType, Title);
    },
    DeleteContent: ({ FileName, ContentType }) => this.editor.delete(FileName, ContentType),
    DeleteMultipleContent: ({ Items }) => this.editor.deleteMany(Items),
    AddBookmark: ({ FilePath, Type, Time, ContentType, Id }) =>
      this.editor.addBookmark({ filePath: FilePath, type: Type, time: Time, contentType: ContentType, id: Id }),
    DeleteBookmark: ({ FilePath, ContentType, Id }) => this.editor.deleteBookmark(FilePath, ContentType, Id),
    SetFavorite: ({ FilePath, ContentType, Favorite }) => this.editor.setFavorite(FilePath, ContentType, Favorite),
    OpenFileLocation: async ({ FilePath }) => this.files.reveal(await this.locator.insideContent(FilePath)),
    CopyFileToClipboard: async ({ FilePath }) => this.clipboard.copyFile(await this.locator.insideContent(FilePath)),
    OpenLogsLocation: () => {
      // What a bug report needs, at the end of the log the user is about to open.
      this.logger.info('diagnostics', {
        platform: process.platform,
        arch: process.arch,
        node: process.version,
        dataFolder: this.options.dataFolder,
        contentFolder: this.settings.current.contentFolder,
        cacheFolder: this.settings.current.cacheFolder,
        contentItems: this.library.list().length,
      });
      return this.files.reveal(path.join(this.options.logFolder, 'keyframe.log'));
    },
  };
}
