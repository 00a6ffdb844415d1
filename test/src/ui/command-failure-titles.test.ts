// Every command the protocol has gets a worded toast title when the service refuses it (the UI's table).
import { expect } from 'chai';
import { Commands } from '@keyframe/core/protocol';
import { importUiModule } from '../kit/ui-module.js';

interface TitleTable {
  COMMAND_FAILURE_TITLES: Record<string, string>;
  commandFailureTitle(method: string | null): string;
}

describe('ui: toast titles of refused commands', () => {
  it('has a phrase in words for every command, never its method name', async () => {
    const { COMMAND_FAILURE_TITLES, commandFailureTitle } = await importUiModule<TitleTable>('toasts/command-failure-titles.ts');
    const commands = Object.keys(Commands);
    expect(Object.keys(COMMAND_FAILURE_TITLES).sort()).to.deep.equal([...commands].sort());
    for (const [method, title] of Object.entries(COMMAND_FAILURE_TITLES)) {
      expect(title, method).to.match(/^Couldn't [a-z]/);
      // A method or field name is one word with a capital inside (camelCase, PascalCase).
      expect(title, method).not.to.match(/[a-z][A-Z]/);
      for (const command of commands) expect(title, method).not.to.contain(command);
    }
    expect(commandFailureTitle('OpenFileLocation')).to.equal("Couldn't open the folder");
    expect(commandFailureTitle('NoSuchCommand')).to.equal('Something went wrong');
    expect(commandFailureTitle(null)).to.equal("The service couldn't read a message");
  });
});
