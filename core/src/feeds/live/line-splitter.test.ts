import { expect } from 'chai';
import { LineSplitter } from './line-splitter.js';

describe('LineSplitter', () => {
  it('returns complete lines only and holds a half-written one', () => {
    const splitter = new LineSplitter();
    expect(splitter.push(Buffer.from('one\ntw'))).to.deep.equal(['one']);
    expect(splitter.push(Buffer.from('o\n'))).to.deep.equal(['two']);
  });

  it('removes CRLF line ends, also when CR and LF arrive apart', () => {
    const splitter = new LineSplitter();
    expect(splitter.push(Buffer.from('a\r\nb\r'))).to.deep.equal(['a']);
    expect(splitter.push(Buffer.from('\n'))).to.deep.equal(['b']);
  });

  it('joins a UTF-8 character split between reads, and replaces invalid bytes instead of throwing', () => {
    const splitter = new LineSplitter();
    const text = Buffer.from('héllo\n');
    expect(splitter.push(text.subarray(0, 2))).to.deep.equal([]);
    expect(splitter.push(text.subarray(2))).to.deep.equal(['héllo']);
    expect(splitter.push(Buffer.from([0x61, 0xff, 0xfe, 0x0a]))).to.deep.equal(['a\ufffd\ufffd']);
  });

  it('decodes latin1', () => {
    expect(new LineSplitter('latin1').push(Buffer.from('café\n', 'latin1'))).to.deep.equal(['café']);
  });

  it('cuts a line over the limit and drops the rest of it', () => {
    const splitter = new LineSplitter('utf8', 8);
    expect(splitter.push(Buffer.from('0123456789'))).to.deep.equal([]);
    expect(splitter.push(Buffer.from('abcdef\nnext\n'))).to.deep.equal(['01234567', 'next']);
  });

  it('forgets a held line on reset', () => {
    const splitter = new LineSplitter();
    splitter.push(Buffer.from('stale'));
    splitter.reset();
    expect(splitter.push(Buffer.from('fresh\n'))).to.deep.equal(['fresh']);
  });
});
