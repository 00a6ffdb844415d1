// The shape of command handlers: each command family supplies a table from Method to handler.
import type { CommandName, CommandParameters } from '../protocol/index.js';

export type CommandHandler<M extends CommandName> = (parameters: CommandParameters<M>) => void | Promise<void>;
export type CommandHandlers = { [M in CommandName]?: CommandHandler<M> };

export interface CommandGroup {
  readonly handlers: CommandHandlers;
}

/** tsyringe token under which every command family registers. */
export const COMMAND_GROUP = Symbol('CommandGroup');
