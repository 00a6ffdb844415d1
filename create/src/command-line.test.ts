import { expect } from 'chai';
import { parseCommandLine } from './command-line.js';
import { UsageError } from './project.js';

describe('create-keyframe-integration command line', () => {
  it('takes one folder and every option', () => {
    const commandLine = parseCommandLine([
      'racing-game',
      '--feed',
      'poll',
      '--key',
      'racer',
      '--display-name',
      'Some Racer 2',
      '--package-name',
      '@me/racer',
      '--port',
      '8111',
    ]);
    expect(commandLine).to.deep.equal({
      help: false,
      request: { folder: 'racing-game', feed: 'poll', key: 'racer', displayName: 'Some Racer 2', packageName: '@me/racer', port: '8111' },
    });
  });

  it('leaves out what was not given, for the defaults', () => {
    expect(parseCommandLine(['racing-game'])).to.deep.equal({ help: false, request: { folder: 'racing-game' } });
  });

  it('answers --help and -h before anything else is checked', () => {
    expect(parseCommandLine(['--help'])).to.deep.equal({ help: true });
    expect(parseCommandLine(['a', 'b', '-h'])).to.deep.equal({ help: true });
  });

  it('refuses no folder, two folders and unknown options', () => {
    expect(() => parseCommandLine([])).to.throw(UsageError, 'expected one folder, got 0 argument(s)');
    expect(() => parseCommandLine(['a', 'b'])).to.throw(UsageError, 'expected one folder, got 2 argument(s)');
    expect(() => parseCommandLine(['a', '--colour', 'red'])).to.throw(UsageError, /--colour/);
    expect(() => parseCommandLine(['a', '--feed'])).to.throw(UsageError, /--feed/);
  });
});
