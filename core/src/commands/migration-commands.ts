// MigrateContent: moves library items into the canonical folder layout; progress via ContentMigrationProgress.
import { injectable } from 'tsyringe';
import { ContentMigration } from '../library/content-migration.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class MigrationCommands implements CommandGroup {
  constructor(private readonly migration: ContentMigration) {}

  readonly handlers: CommandHandlers = {
    MigrateContent: async () => {
      await this.migration.migrate();
    },
  };
}
