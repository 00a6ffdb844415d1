import { ScreenTextMatcher } from '@keyframe/core';
import { expect } from 'chai';
import { WASTED_KEYWORDS } from './wasted-text.js';

/** What OCR read, one frame every 200 ms; the events it makes, as [type, ms]. */
function events(texts: string[]): [string, number][] {
  const matcher = new ScreenTextMatcher(WASTED_KEYWORDS);
  const found = texts.flatMap((text, index) => matcher.push({ text, confidence: 90, frameTimeMs: index * 200 }));
  return [...found, ...matcher.flush()].map((event) => [event.type, event.timeMs]);
}

describe('open-world-crime WASTED text', () => {
  it('makes one Death of the death screen, with an OCR error or split letters', () => {
    expect(events(['', 'WASTED', 'WASTED', 'WASTED', 'WASTED', 'WASTED', 'WASTED', 'WASTED', 'WASTED'])).to.deep.equal([['Death', 200]]);
    expect(events(['VASTED'])).to.deep.equal([['Death', 0]]);
    expect(events(['WAS TED'])).to.deep.equal([['Death', 0]]);
  });

  it('makes nothing of near misses', () => {
    expect(events(['WASTE', 'BUSTED', 'WAS', 'VASTEI', 'MISSION PASSED'])).to.deep.equal([]);
  });

  it('makes a second Death once the cool-down has passed', () => {
    const texts = ['WASTED', ...Array<string>(15).fill(''), 'WASTED'];
    expect(events(texts)).to.deep.equal([
      ['Death', 0],
      ['Death', 3200],
    ]);
  });
});
