import { expect } from 'chai';
import { ScreenTextMatcher, type ScreenTextEvent } from './screen-text-matcher.js';

const soccer = () =>
  new ScreenTextMatcher({
    keywords: [
      { keyword: '+100', type: 'Goal' },
      { keyword: 'goal', type: 'Goal', exclude: ['shot', 'on '] },
      { keyword: 'assist', type: 'Assist' },
    ],
    cooldownMs: 5000,
    excludeWindowMs: 1500,
  });

/** Frames every 250 ms from `fromMs`, each with its text; the events in order. */
function play(matcher: ScreenTextMatcher, texts: string[], fromMs = 0): Pick<ScreenTextEvent, 'type' | 'timeMs'>[] {
  const events = texts.flatMap((text, index) => matcher.push({ text, confidence: 90, frameTimeMs: fromMs + index * 250 }));
  return [...events, ...matcher.flush()].map(({ type, timeMs }) => ({ type, timeMs }));
}

describe('ScreenTextMatcher', () => {
  it('gives one event for a message read on many frames (cool-down per type)', () => {
    const texts = ['', '+100 GOAL', '+100 GOAL', '+100 GOAL', '+100 GOAL', '+100 GOAL', '+100 GOAL', '+100 GOAL', '+100 GOAL', ''];
    expect(play(soccer(), texts)).to.deep.equal([{ type: 'Goal', timeMs: 250 }]);
  });

  it('lets another type through during a cool-down, and the same type after it', () => {
    const matcher = soccer();
    expect(play(matcher, ['+100 GOAL', 'ASSIST'])).to.deep.equal([
      { type: 'Goal', timeMs: 0 },
      { type: 'Assist', timeMs: 250 },
    ]);
    expect(play(matcher, ['+100 GOAL'], 4000)).to.deep.equal([]);
    expect(play(matcher, ['+100 GOAL'], 5000)).to.deep.equal([{ type: 'Goal', timeMs: 5000 }]);
  });

  it('ignores a keyword with an exclusion fragment on the same frame', () => {
    expect(play(soccer(), ['SHOT ON GOAL', 'SHOT ON GOAL', 'SHOT ON GOAL'])).to.deep.equal([]);
  });

  it('drops a match when a fragment shows within the window, keeps it (at its own time) when none does', () => {
    // The first frame caught only part of the message.
    expect(play(soccer(), ['GOAL', 'SHOT ON GOAL', ''])).to.deep.equal([]);
    const events = play(soccer(), ['', 'GOAL', 'GOAL', '', '', '', '', '', '']);
    expect(events).to.deep.equal([{ type: 'Goal', timeMs: 250 }]);
  });

  it('confirms a waiting match once a frame comes after the window, and at the end', () => {
    const matcher = soccer();
    expect(matcher.push({ text: 'GOAL', confidence: 90, frameTimeMs: 1000 })).to.deep.equal([]);
    expect(matcher.push({ text: '', confidence: 0, frameTimeMs: 2000 })).to.deep.equal([]);
    expect(matcher.push({ text: '', confidence: 0, frameTimeMs: 2600 }).map((event) => event.timeMs)).to.deep.equal([1000]);
    matcher.push({ text: 'GOAL', confidence: 90, frameTimeMs: 9000 });
    expect(matcher.flush().map((event) => event.timeMs)).to.deep.equal([9000]);
    expect(matcher.flush()).to.deep.equal([]);
  });

  it('subtracts the compensation, never below the recording start', () => {
    const matcher = new ScreenTextMatcher({ keywords: [{ keyword: 'WASTED', type: 'Death' }], compensationMs: 1000 });
    expect(matcher.push({ text: 'WASTED', confidence: 96, frameTimeMs: 400 })[0]).to.deep.include({ type: 'Death', timeMs: 0 });
    expect(matcher.push({ text: 'VASTED', confidence: 80, frameTimeMs: 9400 })[0]).to.deep.include({
      type: 'Death',
      timeMs: 8400,
      keyword: 'WASTED',
    });
  });

  it('starts afresh after reset()', () => {
    const matcher = soccer();
    play(matcher, ['+100 GOAL']);
    matcher.reset();
    expect(play(matcher, ['+100 GOAL'], 1000)).to.deep.equal([{ type: 'Goal', timeMs: 1000 }]);
  });
});
