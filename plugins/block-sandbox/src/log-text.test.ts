import { expect } from 'chai';
import { readingsOfLine } from './log-text.js';

const asDelivered = (bytes: Buffer) => bytes.toString('latin1');

describe('readingsOfLine', () => {
  it('keeps an ASCII line as it is', () => {
    expect(readingsOfLine('Steve drowned')).to.deep.equal(['Steve drowned']);
  });

  it('reads valid UTF-8', () => {
    expect(readingsOfLine(asDelivered(Buffer.from('Created by *❖✵Strangey', 'utf8')))).to.deep.equal(['Created by *❖✵Strangey']);
  });

  it('reads the bytes of a Chinese Windows (GBK) and of a western one (Windows-1252) when they are not UTF-8', () => {
    const gbk = Buffer.from([0x67, 0x65, 0x6c, 0x65, 0x31, 0x37, 0x38, 0xb1, 0xbb, 0x41, 0xc9, 0xb1, 0xcb, 0xc0, 0xc1, 0xcb]);
    expect(readingsOfLine(asDelivered(gbk))[0]).to.equal('gele178被A杀死了');
    const western = Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x61, 0x75, 0x20, 0x6c, 0x61, 0x69, 0x74]);
    expect(readingsOfLine(asDelivered(western))).to.include('Café au lait');
  });

  it('never throws on arbitrary bytes', () => {
    const noise = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
    expect(readingsOfLine(asDelivered(noise))).to.have.length(2);
  });
});
