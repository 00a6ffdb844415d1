// SetVideoLocation, SetCacheLocation and the answer to a StorageWarning.
import { injectable } from 'tsyringe';
import { LibraryLocations } from '../library/library-locations.js';
import { StorageWarnings } from '../storage/storage-warnings.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class StorageCommands implements CommandGroup {
  constructor(
    private readonly locations: LibraryLocations,
    private readonly warnings: StorageWarnings,
  ) {}

  readonly handlers: CommandHandlers = {
    SetVideoLocation: ({ Path }) => this.locations.setVideoLocation(Path),
    SetCacheLocation: ({ Path }) => this.locations.setCacheLocation(Path),
    StorageWarningConfirm: (answer) => this.warnings.answer(answer),
  };
}
