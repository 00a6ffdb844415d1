import { expect } from 'chai';
import { redact, redactText } from './redact.js';

describe('redact', () => {
  it('replaces token values at any depth and in any case', () => {
    expect(redact({ Parameters: { accessToken: 'a', RefreshToken: 'b', keep: 'c' }, list: [{ jwt: 'd' }] })).to.deep.equal({
      Parameters: { accessToken: '-REDACTED-', RefreshToken: '-REDACTED-', keep: 'c' }, list: [{ jwt: '-REDACTED-' }],
    });
  });

  it('replaces token values in raw frame text', () => {
    expect(redactText('{"Method":"Login","Parameters":{"accessToken":"ey.J\\"x","refreshToken": "r"}}'))
      .to.equal('{"Method":"Login","Parameters":{"accessToken":"-REDACTED-","refreshToken": "-REDACTED-"}}');
  });
});
