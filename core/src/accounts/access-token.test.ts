import { expect } from 'chai';
import { EXPIRY_MARGIN_MS, jwtExpiry, needsRenewal } from './access-token.js';

const jwt = (payload: object) =>
  ['{"alg":"HS256"}', JSON.stringify(payload), 'signature']
    .map((part, index) => (index < 2 ? Buffer.from(part).toString('base64url') : part))
    .join('.');

describe('access token expiry', () => {
  const now = Date.UTC(2026, 10, 24, 12, 0, 0);

  it('reads the exp of a JWT', () => {
    expect(jwtExpiry(jwt({ sub: 'player', exp: now / 1000 + 600 }))).to.equal(now + 600_000);
  });

  it('knows no expiry for opaque tokens, JWTs without a numeric exp, or broken ones', () => {
    for (const token of ['opaque-token', jwt({ sub: 'player' }), jwt({ exp: 'tomorrow' }), 'a.%%%.c', 'a.b']) {
      expect(jwtExpiry(token), token).to.equal(undefined);
      expect(needsRenewal(token, now), token).to.equal(false);
    }
  });

  it('renews within the margin before exp, not earlier', () => {
    expect(needsRenewal(jwt({ exp: (now + EXPIRY_MARGIN_MS + 1000) / 1000 }), now)).to.equal(false);
    expect(needsRenewal(jwt({ exp: (now + EXPIRY_MARGIN_MS - 1000) / 1000 }), now)).to.equal(true);
    expect(needsRenewal(jwt({ exp: (now - 3_600_000) / 1000 }), now)).to.equal(true);
  });
});
