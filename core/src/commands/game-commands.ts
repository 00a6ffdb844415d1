// SelectGameExecutable: the executable of a game the user adds, from a native file picker or, where
// there is none (headless, or a web frontend on another machine), from the `FilePath` extension.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { PickerUnavailableError, type PickOptions } from '../platform/native-picker.js';
import { GameCatalog } from '../games/game-catalog.js';
import { Notifier } from '../notices/notifier.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { toWirePath } from '../protocol/wire-format.js';
import { CommandError } from '../protocol/refusal.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

/** Shows a file picker; resolves to the chosen paths, [] on cancel; throws `PickerUnavailableError`. */
export type ExecutablePicker = (options: PickOptions) => Promise<string[]>;
export const EXECUTABLE_PICKER = Symbol('ExecutablePicker');

const PICKER_OPTIONS: PickOptions = { title: 'Select the game executable', patterns: ['*.exe', '*'] };

@injectable()
export class GameCommands implements CommandGroup {
  constructor(
    private readonly catalog: GameCatalog,
    private readonly notifier: Notifier,
    @inject(EXECUTABLE_PICKER) private readonly pick: ExecutablePicker,
    @inject(EVENT_SINK) private readonly events: EventSink,
  ) {}

  readonly handlers: CommandHandlers = {
    SelectGameExecutable: async ({ FilePath }) => {
      const executable = FilePath === undefined ? await this.pickExecutable() : await existingFile(FilePath);
      if (!executable) return;
      const name = this.catalog.nameFor(executable) ?? path.basename(executable).replace(/\.[^.]+$/, '');
      this.events.send('SelectedGameExecutable', { name, paths: [toWirePath(executable)] });
    },
  };

  /** The chosen file, or undefined when the user cancelled. */
  private async pickExecutable(): Promise<string | undefined> {
    try {
      return (await this.pick(PICKER_OPTIONS))[0];
    } catch (error) {
      if (!(error instanceof PickerUnavailableError)) throw error;
      this.notifier.showModal({
        title: 'No file picker available',
        description:
          'Keyframe could not open a file picker on this machine. Install zenity or kdialog, ' +
          'or type the path of the game executable where the frontend offers it (SelectGameExecutable with FilePath).',
        type: 'error',
      });
      throw new CommandError('Unavailable', `${error.message}.`);
    }
  }
}

async function existingFile(filePath: string): Promise<string> {
  if (!path.isAbsolute(filePath))
    throw new CommandError('InvalidParameters', `FilePath must be an absolute path to the game executable, not ${filePath}`);
  const info = await stat(filePath).catch(() => undefined);
  if (!info) throw new CommandError('InvalidParameters', `There is no file at ${filePath}: check the path of the game executable.`);
  if (!info.isFile())
    throw new CommandError('InvalidParameters', `${filePath} is not a file: choose the game's executable, not its folder.`);
  return filePath;
}
