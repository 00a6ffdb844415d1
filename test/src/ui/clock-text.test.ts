// The times the UI writes (cards, the trim editor's handles and scale): the UI's own formatter, run in Node.
import { expect } from 'chai';
import { importUiModule } from '../kit/ui-module.js';

interface ContentFormatModule {
  formatSeconds(seconds: number, withTenths?: boolean): string;
}

describe('ui: times as people read them', () => {
  let formatSeconds: ContentFormatModule['formatSeconds'];
  before(async function () {
    this.timeout(20_000);
    ({ formatSeconds } = await importUiModule<ContentFormatModule>('library/content-format.ts'));
  });

  it('reads a float such as 2.3 s as 0:02.3, not 0:02.2', () => {
    expect(formatSeconds(2.3, true)).to.equal('0:02.3');
    expect(formatSeconds(0.1 + 0.2, true)).to.equal('0:00.3');
    expect(formatSeconds(59.99, true)).to.equal('0:59.9');
  });

  it('writes minutes and hours, never a negative time', () => {
    expect(formatSeconds(90)).to.equal('1:30');
    expect(formatSeconds(3725.5, true)).to.equal('1:02:05.5');
    expect(formatSeconds(-4)).to.equal('0:00');
  });
});
