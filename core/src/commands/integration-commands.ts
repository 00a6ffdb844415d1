// ApproveIntegration and RevokeIntegration: the user lets a third-party integration run, or stops it.
// The frontend sends them only from an explicit click beside the package's name, version, path and hash.
import { injectable } from 'tsyringe';
import { IntegrationHost } from '../plugins/integration-host.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class IntegrationCommands implements CommandGroup {
  constructor(private readonly host: IntegrationHost) {}

  readonly handlers: CommandHandlers = {
    ApproveIntegration: ({ key, hash }) => this.host.approve(key, hash),
    RevokeIntegration: ({ key }) => this.host.revoke(key),
  };
}
