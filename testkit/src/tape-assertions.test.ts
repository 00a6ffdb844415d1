import { expect } from 'chai';
import { compareBookmarks } from './tape-assertions.js';

describe('compareBookmarks', () => {
  const kill = (time: number, recording = 0) => ({ type: 'Kill' as const, time, recording });

  it('accepts times within the tolerance', () => {
    expect(compareBookmarks([kill(10.3)], { tolerance: 0.5, bookmarks: [{ type: 'Kill', time: 10 }] })).to.deep.equal([]);
  });

  it('names a missing bookmark, a wrong type, a time out of tolerance and a wrong recording', () => {
    expect(
      compareBookmarks([kill(10)], {
        bookmarks: [
          { type: 'Kill', time: 10 },
          { type: 'Death', time: 20 },
        ],
      })[0],
    ).to.match(/expected 2 bookmarks, got 1/);
    expect(compareBookmarks([kill(10)], { bookmarks: [{ type: 'Death', time: 10 }] })[0]).to.match(
      /expected Death at 10\.000 s, got Kill at 10\.000 s/,
    );
    expect(compareBookmarks([kill(11)], { bookmarks: [{ type: 'Kill', time: 10 }] })).to.have.length(1);
    expect(compareBookmarks([kill(10, 1)], { bookmarks: [{ type: 'Kill', time: 10 }] })).to.have.length(1);
  });
});
