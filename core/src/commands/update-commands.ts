// CheckForUpdates and ApplyUpdate: the updater does the work and reports through UpdateProgress.
import { injectable } from 'tsyringe';
import { Updater } from '../updates/updater.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class UpdateCommands implements CommandGroup {
  constructor(private readonly updater: Updater) {}

  readonly handlers: CommandHandlers = {
    CheckForUpdates: () => this.updater.check(),
    ApplyUpdate: () => this.updater.apply(),
  };
}
