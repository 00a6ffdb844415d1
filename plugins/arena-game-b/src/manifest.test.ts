// The manifest is read without our code: it must say what the code does.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';

const manifest = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    keyframe: { integration: { key: string; events: string[]; games: Array<{ name: string; executables: string[] }>; feeds: string[] } };
  }
).keyframe.integration;

describe('arena-game-b manifest', () => {
  it('names Dota 2 by its real executables, the events it adds and the port it listens on', () => {
    expect(manifest.key).to.equal('arenaGameB');
    expect(manifest.games).to.deep.equal([{ name: 'Dota 2', executables: ['dota2.exe', 'dota2'] }]);
    expect(manifest.events).to.deep.equal(['Kill', 'Death', 'Assist']);
    expect(manifest.feeds).to.deep.equal(['httpPush:1341']);
  });
});
