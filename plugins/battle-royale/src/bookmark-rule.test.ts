import { expect } from 'chai';
import { bookmarkTypeOf } from './bookmark-rule.js';
import type { ReplayEvent } from './replay-event.js';

const event = (instigator: string, victim: string, victimWasKnocked = false): ReplayEvent => ({
  offsetMs: 0,
  instigator,
  victim,
  victimWasKnocked,
});

describe('bookmarkTypeOf', () => {
  it('counts a knock by the player as a Kill, and a kill without a knock before it', () => {
    expect(bookmarkTypeOf('knock', event('me', 'enemy'), 'me')).to.equal('Kill');
    expect(bookmarkTypeOf('kill', event('me', 'enemy', false), 'me')).to.equal('Kill');
  });

  it('does not count finishing a knocked player again', () => {
    expect(bookmarkTypeOf('kill', event('me', 'enemy', true), 'me')).to.equal(undefined);
  });

  it('counts being knocked as the Death, and being killed without a knock', () => {
    expect(bookmarkTypeOf('knock', event('enemy', 'me'), 'me')).to.equal('Death');
    expect(bookmarkTypeOf('kill', event('enemy', 'me', false), 'me')).to.equal('Death');
    expect(bookmarkTypeOf('kill', event('enemy', 'me', true), 'me')).to.equal(undefined);
    expect(bookmarkTypeOf('kill', event('', 'me', false), 'me')).to.equal('Death');
  });

  it('counts knocking yourself as a Death, never a Kill', () => {
    expect(bookmarkTypeOf('knock', event('me', 'me'), 'me')).to.equal('Death');
  });

  it('gives nothing for other players', () => {
    expect(bookmarkTypeOf('knock', event('mate', 'enemy'), 'me')).to.equal(undefined);
    expect(bookmarkTypeOf('kill', event('mate', 'enemy', false), 'me')).to.equal(undefined);
  });
});
