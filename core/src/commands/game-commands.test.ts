import 'reflect-metadata';
import { expect } from 'chai';
import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PickerUnavailableError, type PickOptions } from '../platform/native-picker.js';
import { EVENT_SINK } from '../protocol/event-sink.js';
import { EXECUTABLE_PICKER, GameCommands, type ExecutablePicker } from './game-commands.js';
import { commandRejection, RecordedEvents } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

describe('GameCommands', () => {
  let app: TestApp;
  let folder: string;
  let events: RecordedEvents;
  let picked: PickOptions[];
  let pickerAnswer: () => Promise<string[]>;
  let commands: GameCommands;

  const select = (FilePath?: string) => commands.handlers.SelectGameExecutable!(FilePath === undefined ? {} : { FilePath });
  beforeEach(async () => {
    events = new RecordedEvents();
    picked = [];
    pickerAnswer = async () => [];
    const picker: ExecutablePicker = (options) => {
      picked.push(options);
      return pickerAnswer();
    };
    app = await createTestApp({
      settings: { games: [{ name: 'Test Game', paths: ['keyframe-test-game'], record: true }] },
      overrides: [
        [EVENT_SINK, events],
        [EXECUTABLE_PICKER, picker],
      ],
    });
    folder = app.dataFolder;
    commands = app.resolve(GameCommands);
  });
  afterEach(() => app.dispose());

  it('names a FilePath known to the catalog by its catalog name, through a user entry or the bundled list', async () => {
    const testGame = path.join(folder, 'bin', 'keyframe-test-game');
    await mkdir(path.dirname(testGame));
    await copyFile('/bin/sleep', testGame);
    await select(testGame);
    const dota = path.join(folder, 'dota2.exe');
    await writeFile(dota, '');
    await select(dota);
    expect(events.sent).to.deep.equal([
      { method: 'SelectedGameExecutable', content: { name: 'Test Game', paths: [testGame] } },
      { method: 'SelectedGameExecutable', content: { name: 'Dota 2', paths: [dota] } },
    ]);
    expect(picked, 'no picker when the path is given').to.deep.equal([]);
  });

  it('names an unknown executable after its file name without the extension', async () => {
    const unknown = path.join(folder, 'Some Indie.Game.exe');
    await writeFile(unknown, '');
    await chmod(unknown, 0o755);
    await select(unknown);
    expect(events.sent).to.deep.equal([{ method: 'SelectedGameExecutable', content: { name: 'Some Indie.Game', paths: [unknown] } }]);
  });

  it('refuses a FilePath that is missing, a folder or relative, with InvalidParameters', async () => {
    for (const [filePath, message] of [
      [path.join(folder, 'missing.exe'), /no file at .*missing\.exe/],
      [folder, /is not a file/],
      ['games/game.exe', /absolute path/],
    ] as const) {
      const error = await commandRejection(select(filePath));
      expect(error.code).to.equal('InvalidParameters');
      expect(error.message).to.match(message);
    }
    expect(events.sent).to.deep.equal([]);
  });

  it('opens the picker for executables without FilePath and answers with the chosen file', async () => {
    const chosen = path.join(folder, 'RocketLeague.exe');
    pickerAnswer = async () => [chosen];
    await select();
    expect(picked).to.deep.equal([{ title: 'Select the game executable', patterns: ['*.exe', '*'] }]);
    expect(events.sent).to.deep.equal([{ method: 'SelectedGameExecutable', content: { name: 'Rocket League', paths: [chosen] } }]);
  });

  it('sends nothing when the user cancels the picker', async () => {
    await select();
    expect(events.sent).to.deep.equal([]);
  });

  it('without a picker tells the user what to do and rejects with Unavailable', async () => {
    pickerAnswer = async () => {
      throw new PickerUnavailableError();
    };
    const error = await commandRejection(select());
    expect(error.code).to.equal('Unavailable');
    expect(events.sent).to.have.length(1);
    const modal = events.sent[0]!;
    expect(modal.method).to.equal('ShowModal');
    expect(modal.content).to.deep.include({ type: 'error', title: 'No file picker available' });
    expect((modal.content as { description: string }).description)
      .to.match(/zenity/)
      .and.match(/FilePath/);
  });
});
