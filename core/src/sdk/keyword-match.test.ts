import { expect } from 'chai';
import { containsKeyword, editDistance } from './keyword-match.js';

describe('keyword matching of OCR text', () => {
  it('counts edits', () => {
    expect(editDistance('wasted', 'wasted')).to.equal(0);
    expect(editDistance('wasted', 'vasted')).to.equal(1);
    expect(editDistance('assist', 'asist')).to.equal(1);
    expect(editDistance('', 'goal')).to.equal(4);
  });

  it('wants short tokens exactly, in any case', () => {
    expect(containsKeyword('+100 GOAL', '+100')).to.equal(true);
    expect(containsKeyword('+100 GOAL', 'goal')).to.equal(true);
    expect(containsKeyword('+1O0 GOAL', '+100')).to.equal(false);
    expect(containsKeyword('100 GOA', 'goal')).to.equal(false);
    expect(containsKeyword('G0AL', 'goal')).to.equal(false);
  });

  it('forgives a longer word an OCR error per four letters, also when split', () => {
    expect(containsKeyword('VASTED', 'WASTED')).to.equal(true);
    expect(containsKeyword('WAS TED', 'WASTED')).to.equal(true);
    expect(containsKeyword('~ ASSlST!', 'assist')).to.equal(true);
    expect(containsKeyword('VASTEI', 'WASTED')).to.equal(false); // two errors in six letters
    expect(containsKeyword('WASTE', 'WASTED')).to.equal(false); // too short to hold the word
    expect(containsKeyword('', 'WASTED')).to.equal(false);
  });

  it('matches phrases word by word', () => {
    expect(containsKeyword('an EPIC SAVES', 'epic save')).to.equal(true);
    expect(containsKeyword('EPIC', 'epic save')).to.equal(false);
  });
});
