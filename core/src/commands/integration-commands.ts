// ApproveIntegration and RevokeIntegration: the user lets a third-party integration run, or stops it.
// The frontend sends them only from an explicit click beside the package's name, version, path and hash.
import { injectable } from 'tsyringe';
import { IntegrationHost } from '../integrations/integration-host.js';
import { SettingsService } from '../settings/settings-service.js';
import { StartupProgress } from '../support/startup-progress.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class IntegrationCommands implements CommandGroup {
  constructor(
    private readonly host: IntegrationHost,
    private readonly settings: SettingsService,
    private readonly startup: StartupProgress,
  ) {}

  // Early after start-up, the packages may still be discovered: the approval waits for them.
  readonly handlers: CommandHandlers = {
    ApproveIntegration: async ({ key, hash }) => {
      await this.startup.loaded('integrations');
      await this.host.approve(key, hash);
      // A first approval adds the integration's switch to the settings.
      this.settings.publish();
    },
    RevokeIntegration: async ({ key }) => {
      await this.startup.loaded('integrations');
      await this.host.revoke(key);
    },
  };
}
