// CreateAiClip: a highlight of a library item; progress and outcome via AiProgress. CancelAiClip (extension) stops it.
import { injectable } from 'tsyringe';
import { HighlightService } from '../jobs/highlight/highlight-service.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class HighlightCommands implements CommandGroup {
  constructor(private readonly highlights: HighlightService) {}

  readonly handlers: CommandHandlers = {
    CreateAiClip: async ({ FileName }) => {
      await this.highlights.createFor(FileName);
    },
    CancelAiClip: ({ id }) => this.highlights.cancel(id),
  };
}
