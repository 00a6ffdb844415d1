import { expect } from 'chai';
import { formatContentSize, formatDuration, formatLocalDateTime, formatRecoverySize, parseDuration, toWirePath } from './wire-format.js';

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

  it('writes a library item\'s size in MB below 1000 MiB and in GB from there, as the reference does', () => {
    expect(formatContentSize(0)).to.equal('0.00 MB');
    expect(formatContentSize(123.45 * 1024 * 1024)).to.equal('123.45 MB');
    expect(formatContentSize(999.994 * 1024 * 1024)).to.equal('999.99 MB');
    expect(formatContentSize(1000 * 1024 * 1024)).to.equal('0.98 GB');
    expect(formatContentSize(1.23 * 1024 ** 3)).to.equal('1.23 GB');
  });

  it('writes a recoverable file\'s size in MB up to 1024 MiB and in GB from there, unlike library items', () => {
    expect(formatRecoverySize(0)).to.equal('0.00 MB');
    expect(formatRecoverySize(1000 * 1024 * 1024)).to.equal('1000.00 MB');
    expect(formatRecoverySize(1023.994 * 1024 * 1024)).to.equal('1023.99 MB');
    expect(formatRecoverySize(1024 * 1024 * 1024)).to.equal('1.00 GB');
    expect(formatRecoverySize(1.23 * 1024 ** 3)).to.equal('1.23 GB');
  });

  it('writes paths with forward slashes on every platform', () => {
    expect(toWirePath('C:\\Videos\\Clips\\a.mp4')).to.equal('C:/Videos/Clips/a.mp4');
    expect(toWirePath('/home/me/Videos/a.mp4')).to.equal('/home/me/Videos/a.mp4');
  });
});
