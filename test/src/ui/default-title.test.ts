// The title an item without one is shown with: its game and date, "Untitled" only without a game.
import { expect } from 'chai';
import { importUiModule } from '../kit/ui-module.js';

interface DefaultTitle {
  defaultTitle(game: string, createdAt: string): string;
}

describe('ui: default titles', () => {
  it('reads "<game> — <date>", short, with the year only when it is not this one', async () => {
    const { defaultTitle } = await importUiModule<DefaultTitle>('format/default-title.ts');
    const thisYear = new Date().getFullYear();
    const recent = defaultTitle('Tactical Shooter', new Date(thisYear, 0, 2, 21, 5).toISOString());
    expect(recent).to.match(/^Tactical Shooter — \S/);
    expect(recent).not.to.contain(String(thisYear));
    expect(recent, 'no file-name stamp').not.to.match(/\d{4}-\d{2}-\d{2}/);
    expect(defaultTitle('Block Sandbox', '2019-06-30T18:00:00.000Z')).to.match(/^Block Sandbox — .*2019/);
    expect(defaultTitle('  ', '2019-06-30T18:00:00.000Z')).to.match(/^Untitled — .*2019/);
    expect(defaultTitle('Manual Recording', 'not a date')).to.equal('Manual Recording');
  });
});
