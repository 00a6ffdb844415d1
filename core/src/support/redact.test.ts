import { expect } from 'chai';
import { MAX_LOGGED_DEPTH, redact, redactedExcerpt, redactText } from './redact.js';

describe('redact', () => {
  it('replaces token values at any depth and in any case', () => {
    expect(redact({ Parameters: { accessToken: 'a', RefreshToken: 'b', keep: 'c' }, list: [{ jwt: 'd' }] })).to.deep.equal({
      Parameters: { accessToken: '-REDACTED-', RefreshToken: '-REDACTED-', keep: 'c' },
      list: [{ jwt: '-REDACTED-' }],
    });
  });

  it('replaces token values in raw frame text', () => {
    expect(redactText('{"Method":"Login","Parameters":{"accessToken":"ey.J\\"x","refreshToken": "r"}}')).to.equal(
      '{"Method":"Login","Parameters":{"accessToken":"-REDACTED-","refreshToken": "-REDACTED-"}}',
    );
  });

  it('recognises a key written with escapes, and a value the text cuts off', () => {
    expect(redactText('{"access\\u0054oken":"secret","x":"y"}')).to.equal('{"access\\u0054oken":"-REDACTED-","x":"y"}');
    expect(redactText('{"accessToken":"secret-cut-of')).to.equal('{"accessToken":"-REDACTED-"');
    expect(redactText('{"accessToken":"secret\\')).to.equal('{"accessToken":"-REDACTED-"');
  });

  it('makes an excerpt by redacting first and cutting after, so no part of a long token survives', () => {
    const token = 'T'.repeat(500);
    const excerpt = redactedExcerpt(`{"Method":"Login","Parameters":{"accessToken":"${token}"}}`, 200);
    expect(excerpt).to.not.include('TTT');
    expect(excerpt).to.include('-REDACTED-');
    expect(redactedExcerpt({ password: token, note: 'n'.repeat(300) }, 100)).to.match(
      /^\{"password":"-REDACTED-","note":"n+… \(\d+ characters in all\)$/,
    );
  });

  it('turns an error into its name, message, stack, code and cause instead of {}', () => {
    const cause = Object.assign(new Error('disk full'), { code: 'ENOSPC' });
    const error = new TypeError('could not save', { cause });
    const redacted = redact({ error }) as { error: Record<string, unknown> };
    expect(redacted.error).to.deep.include({ name: 'TypeError', message: 'could not save' });
    expect(redacted.error.stack).to.match(/could not save\n\s+at /);
    expect(redacted.error.cause).to.deep.include({ name: 'Error', message: 'disk full', code: 'ENOSPC' });
  });

  it('replaces what is nested too deep by a marker instead of recursing into it', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 10_000; level++) deep = [deep];
    const text = JSON.stringify(redact(deep));
    expect(text).to.include(`nested deeper than ${MAX_LOGGED_DEPTH} levels`);
    expect(text).to.not.include('bottom');
  });

  it('writes dates as JSON does', () => {
    expect(redact({ at: new Date(0) })).to.deep.equal({ at: '1970-01-01T00:00:00.000Z' });
  });
});
