// Upload commands: `UploadContent` starts a tus upload of a library video, `CancelUpload` stops it.
import { injectable } from 'tsyringe';
import { UploadService } from '../uploads/upload-service.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class UploadCommands implements CommandGroup {
  constructor(private readonly uploads: UploadService) {}

  readonly handlers: CommandHandlers = {
    UploadContent: (parameters) => this.uploads.upload(parameters),
    CancelUpload: ({ fileName }) => this.uploads.cancel(fileName),
  };
}
