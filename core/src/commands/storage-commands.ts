// SetVideoLocation, SetCacheLocation, RefreshStorageStats and the answer to a StorageWarning.
import { injectable } from 'tsyringe';
import { LibraryLocations } from '../library/library-locations.js';
import { StatePublisher } from '../state/state-publisher.js';
import { StorageMonitor } from '../storage/storage-monitor.js';
import { StorageWarnings } from '../storage/storage-warnings.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class StorageCommands implements CommandGroup {
  /** The measurement a RefreshStorageStats started; the ones that arrive meanwhile share it (and its State). */
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly locations: LibraryLocations,
    private readonly warnings: StorageWarnings,
    private readonly monitor: StorageMonitor,
    private readonly state: StatePublisher,
  ) {}

  readonly handlers: CommandHandlers = {
    SetVideoLocation: ({ Path }) => this.locations.setVideoLocation(Path),
    SetCacheLocation: ({ Path }) => this.locations.setCacheLocation(Path),
    StorageWarningConfirm: (answer) => this.warnings.answer(answer),
    RefreshStorageStats: () => this.refreshStorageStats(),
  };

  /** Measures the content folder and its drive now and answers with State at once, not after the coalescing delay. */
  private refreshStorageStats(): Promise<void> {
    this.refreshing ??= this.monitor
      .refresh()
      .then(() => this.state.sendNow())
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }
}
