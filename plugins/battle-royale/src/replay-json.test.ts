import { expect } from 'chai';
import { jsonInside } from './replay-json.js';
import { framed } from './test-support/replay-generator.js';

describe('jsonInside', () => {
  it('finds the JSON object inside the binary framing PUBG puts around it', () => {
    expect(jsonInside(framed({ Timestamp: 1, nested: { a: [1, 2] } }))).to.deep.equal({
      ok: true,
      value: { Timestamp: 1, nested: { a: [1, 2] } },
    });
  });

  it('reads UTF-8 names (localized nicknames)', () => {
    expect(jsonInside(framed({ RecordUserNickName: '[月]시라소니' }))).to.deep.equal({
      ok: true,
      value: { RecordUserNickName: '[月]시라소니' },
    });
  });

  it('says why a file gives no object: none at all, cut short, or not an object', () => {
    expect(jsonInside(Buffer.from([0, 1, 2, 0xff]))).to.deep.equal({ ok: false, reason: 'it holds no complete JSON object' });
    const cut = framed({ Timestamp: 1, RecordUserNickName: 'x' });
    const result = jsonInside(Buffer.concat([cut.subarray(0, 20), Buffer.from('}')]));
    expect(result.ok).to.equal(false);
    expect(result.ok ? '' : result.reason).to.match(/^its JSON does not parse/);
    expect(jsonInside(Buffer.from('}{'))).to.deep.equal({ ok: false, reason: 'it holds no complete JSON object' });
  });
});
