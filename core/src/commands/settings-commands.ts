// UpdateSettings and the preset commands.
import { injectable } from 'tsyringe';
import { SettingsService } from '../settings/settings-service.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class SettingsCommands implements CommandGroup {
  constructor(private readonly settings: SettingsService) {}

  readonly handlers: CommandHandlers = {
    UpdateSettings: async (changes) => {
      await this.settings.update(changes);
    },
    ApplyVideoPreset: ({ preset }) => this.settings.applyVideoPreset(preset),
    ApplyClipPreset: ({ preset }) => this.settings.applyClipPreset(preset),
  };
}
