import { expect } from 'chai';
import { formatDuration, formatLocalDateTime, parseDuration } from './wire-format.js';

describe('wire formats', () => {
  it('formats durations as hh:mm:ss with seven fraction digits when needed', () => {
    expect(formatDuration(0)).to.equal('00:00:00');
    expect(formatDuration(83.456)).to.equal('00:01:23.4560000');
    expect(formatDuration(3 * 3600 + 5)).to.equal('03:00:05');
    expect(formatDuration(26 * 3600)).to.equal('1.02:00:00');
  });

  it('parses what it formats, and the short form clients send', () => {
    for (const seconds of [0, 1.5, 59.999, 3725.25, 90000.125]) expect(parseDuration(formatDuration(seconds))).to.be.closeTo(seconds, 1e-6);
    expect(parseDuration('00:01:05.250')).to.equal(65.25);
    expect(parseDuration('1:05')).to.equal(undefined);
    expect(parseDuration('00:61:00')).to.equal(undefined);
  });

  it('writes local date-times with their offset', () => {
    expect(formatLocalDateTime(new Date(2026, 7, 1, 12, 0, 0, 123))).to.match(/^2026-08-01T12:00:00\.123[+-]\d{2}:\d{2}$/);
  });
});
