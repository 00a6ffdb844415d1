import { expect } from 'chai';
import { comparablePlayerName } from './player-name.js';

describe('comparablePlayerName', () => {
  it('strips every clan tag, trims and ignores case', () => {
    for (const name of ['[KFR]Hunter', '[KFR] Hunter', 'hunter', ' HUNTER ', 'Hunter[2]', '[a][b]Hunter']) {
      expect(comparablePlayerName(name), name).to.equal('hunter');
    }
  });

  it('keeps names that only differ by other characters apart', () => {
    expect(comparablePlayerName('Hunter_1')).to.not.equal(comparablePlayerName('Hunter'));
  });
});
