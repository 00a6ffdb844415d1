import { ScreenTextMatcher } from '@keyframe/core';
import { expect } from 'chai';
import { EVENT_KEYWORDS } from './event-text.js';

/** What OCR read, one frame every 250 ms; the events it makes, as [type, ms]. */
function events(texts: string[]): [string, number][] {
  const matcher = new ScreenTextMatcher(EVENT_KEYWORDS);
  const found = texts.flatMap((text, index) => matcher.push({ text, confidence: 90, frameTimeMs: index * 250 }));
  return [...found, ...matcher.flush()].map((event) => [event.type, event.timeMs]);
}

describe('vehicle-soccer event text', () => {
  it('makes one Goal of a goal message, however OCR splits it', () => {
    expect(
      events(['', '+100 GOAL', '+100 GOAL', '+100 GOAL', '+100 GOAL', '+100 GOAL', '+100 GOAL', '+100 GOAL', '+100 GOAL', '']),
    ).to.deep.equal([['Goal', 250]]);
    expect(events(['', 'GOAL', '100 GOAL', 'GOAL', ''])).to.deep.equal([['Goal', 250]]);
  });

  it('makes an Assist of ASSIST, with an OCR error', () => {
    expect(events(['ASSlST', 'ASSIST'])).to.deep.equal([['Assist', 0]]);
  });

  it('makes nothing of near misses', () => {
    expect(events(['SHOT ON GOAL', 'SHOT ON GOAL', 'HOT ON GO'])).to.deep.equal([]);
    expect(events(['GOAL', 'SHOT ON GOAL'])).to.deep.equal([]); // the first frame caught half of it
    expect(events(['+10O GOA', 'G0AL', 'SAVE', 'EPIC SAVE', 'ASSI'])).to.deep.equal([]);
  });
});
