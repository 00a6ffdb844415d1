// CreateClip and CancelClip: clip jobs, with progress via ClipProgress.
import { injectable } from 'tsyringe';
import { ClipService } from '../jobs/clip/clip-service.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class ClipCommands implements CommandGroup {
  constructor(private readonly clips: ClipService) {}

  readonly handlers: CommandHandlers = {
    CreateClip: ({ Segments, OutputMode }) => this.clips.create(Segments, OutputMode),
    CancelClip: ({ id }) => this.clips.cancel(id),
  };
}
