import { expect } from 'chai';
import { parseRange } from './media-routes.js';

describe('parseRange', () => {
  it('reads a-b, a- and suffix ranges, clamping the end to the file', () => {
    expect(parseRange(undefined, 100)).to.equal(undefined);
    expect(parseRange('bytes=0-1', 100)).to.deep.equal({ start: 0, end: 1 });
    expect(parseRange('bytes=10-', 100)).to.deep.equal({ start: 10, end: 99 });
    expect(parseRange('bytes=90-500', 100)).to.deep.equal({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).to.deep.equal({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).to.deep.equal({ start: 0, end: 99 });
  });

  it('finds unsatisfiable and malformed ranges (416)', () => {
    for (const header of ['bytes=100-', 'bytes=5-4', 'bytes=-0', 'bytes=-', 'bytes=0-1,5-6', 'items=0-1', 'bytes=a-b']) {
      expect(parseRange(header, 100), header).to.equal('unsatisfiable');
    }
    expect(parseRange('bytes=-5', 0)).to.equal('unsatisfiable');
  });
});
