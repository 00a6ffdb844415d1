import { expect } from 'chai';
import Value from 'typebox/value';
import { Settings } from '../protocol/index.js';
import { migrateLegacyGameLists } from './legacy-game-lists.js';

const settingsWith = (changes: Partial<Settings>): Settings => ({ ...(Value.Create(Settings) as Settings), ...changes });

describe('migrateLegacyGameLists', () => {
  it('does nothing when both lists are empty', () => {
    const settings = settingsWith({});
    expect(migrateLegacyGameLists(settings)).to.deep.equal({ settings, migratedGames: 0 });
  });

  it('keeps the choice of a game the user already has in games, adding the legacy paths', () => {
    const { settings } = migrateLegacyGameLists(
      settingsWith({
        games: [{ name: 'Arena', paths: ['a.exe'], record: false }],
        whitelist: [{ name: 'ARENA', paths: ['b.exe', 'a.exe'] }],
      }),
    );
    expect(settings.games).to.deep.equal([{ name: 'Arena', paths: ['a.exe', 'b.exe'], record: false }]);
  });

  it('lets the whitelist win over the blacklist for the same game', () => {
    const { settings, migratedGames } = migrateLegacyGameLists(
      settingsWith({
        blacklist: [{ name: 'Arena', paths: ['x'] }],
        whitelist: [{ name: 'arena', paths: ['y'] }],
      }),
    );
    expect(migratedGames).to.equal(2);
    expect(settings.games).to.deep.equal([{ name: 'arena', paths: ['y', 'x'], record: true }]);
  });
});
