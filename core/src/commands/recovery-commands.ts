// RecoveryConfirm: the answer for one file of a RecoveryPrompt.
import { injectable } from 'tsyringe';
import { RecoveryService } from '../recording/recovery-service.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class RecoveryCommands implements CommandGroup {
  constructor(private readonly recovery: RecoveryService) {}

  readonly handlers: CommandHandlers = {
    RecoveryConfirm: (answer) => this.recovery.confirm(answer),
  };
}
