import { expect } from 'chai';
import { FeedHealth, SILENCE_LIMIT_MS, SPECTATING_MESSAGE, UNREADABLE_LIMIT_MS, silenceMessage, unreadableMessage } from './feed-health.js';

const START = Date.parse('2026-01-01T12:00:00Z');
const at = (ms: number) => new Date(START + ms);
const refused = { kind: 'silent', detail: 'connect ECONNREFUSED 127.0.0.1:2999' } as const;

describe('FeedHealth', () => {
  it('stays healthy through a loading screen, and says so once the silence lasts', () => {
    const health = new FeedHealth(at(0));
    expect(health.observe(refused, at(1000))).to.equal(undefined);
    expect(health.observe({ kind: 'silent', detail: 'HTTP 404' }, at(SILENCE_LIMIT_MS - 1))).to.equal(undefined);
    expect(health.observe(refused, at(SILENCE_LIMIT_MS))).to.equal(silenceMessage(refused.detail));
    expect(health.observe({ kind: 'playing' }, at(SILENCE_LIMIT_MS + 250))).to.equal(undefined);
  });

  it('counts the silence from the last data, not from the start', () => {
    const health = new FeedHealth(at(0));
    health.observe({ kind: 'playing' }, at(100_000));
    expect(health.observe(refused, at(SILENCE_LIMIT_MS + 1000))).to.equal(undefined);
    expect(health.observe(refused, at(100_000 + SILENCE_LIMIT_MS))).to.equal(silenceMessage(refused.detail));
  });

  it('explains spectating at once and clears it when our own data comes', () => {
    const health = new FeedHealth(at(0));
    expect(health.observe({ kind: 'spectating' }, at(250))).to.equal(SPECTATING_MESSAGE);
    expect(health.observe(refused, at(500)), 'the game closing keeps the last explanation').to.equal(SPECTATING_MESSAGE);
    expect(health.observe({ kind: 'playing' }, at(750))).to.equal(undefined);
  });

  it('reports answers it cannot read only when they go on, not for one bad answer', () => {
    const health = new FeedHealth(at(0));
    expect(health.observe({ kind: 'unreadable', reason: 'not JSON' }, at(0))).to.equal(undefined);
    expect(health.observe({ kind: 'playing' }, at(250))).to.equal(undefined);
    expect(health.observe({ kind: 'unreadable', reason: 'not JSON' }, at(500))).to.equal(undefined);
    expect(health.observe({ kind: 'unreadable', reason: 'no activePlayer' }, at(500 + UNREADABLE_LIMIT_MS))).to.equal(
      unreadableMessage('no activePlayer'),
    );
    expect(health.observe({ kind: 'playing' }, at(750 + UNREADABLE_LIMIT_MS))).to.equal(undefined);
  });

  it('says what to do in its messages', () => {
    expect(silenceMessage('HTTP 404')).to.match(/^No data from League of Legends on 127\.0\.0\.1:2999 yet \(HTTP 404\): .*port 2999/);
    expect(unreadableMessage('not JSON')).to.match(/cannot read \(not JSON\)/);
  });
});
