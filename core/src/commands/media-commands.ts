// Media jobs on library files: CompressVideo and ImportFile. Both refuse (CommandRejected) before
// anything is touched; after that, each reports through its own progress event. CancelCompression and
// CancelImport (extensions) stop them, named as their progress events name them.
import { injectable } from 'tsyringe';
import { CompressionService } from '../jobs/compression/compression-service.js';
import { ImportService } from '../jobs/import/import-service.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class MediaCommands implements CommandGroup {
  constructor(
    private readonly compression: CompressionService,
    private readonly imports: ImportService,
  ) {}

  readonly handlers: CommandHandlers = {
    CompressVideo: async ({ FilePath }) => {
      await this.compression.compress(FilePath);
    },
    ImportFile: async (parameters) => {
      await this.imports.importFiles(parameters);
    },
    CancelCompression: ({ filePath }) => this.compression.cancel(filePath),
    CancelImport: ({ id }) => this.imports.cancel(id),
  };
}
