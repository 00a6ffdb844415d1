import { expect } from 'chai';
import {
  artworkParts,
  CLOSE_NOT_READING,
  CLOSE_PORT_MOVED,
  CLOSE_REPLACED,
  CLOSE_SHUTDOWN,
  formatContentSize,
  formatDuration,
  formatLocalDateTime,
  formatRecoverySize,
  MEDIA_QUERY,
  MEDIA_ROUTES,
  parseDuration,
  toWirePath,
  wireArtworkPath,
} from './wire-format.js';

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

  it("writes a library item's size in MB below 1000 MiB and in GB from there, as the reference does", () => {
    expect(formatContentSize(0)).to.equal('0.00 MB');
    expect(formatContentSize(123.45 * 1024 * 1024)).to.equal('123.45 MB');
    expect(formatContentSize(999.994 * 1024 * 1024)).to.equal('999.99 MB');
    expect(formatContentSize(1000 * 1024 * 1024)).to.equal('0.98 GB');
    expect(formatContentSize(1.23 * 1024 ** 3)).to.equal('1.23 GB');
  });

  it("writes a recoverable file's size in MB up to 1024 MiB and in GB from there, unlike library items", () => {
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

  it('serves media on the routes and query names the reference frontend builds (protocol-gaps §10)', () => {
    expect(MEDIA_ROUTES).to.deep.equal({ content: '/api/content', thumbnail: '/api/thumbnail' });
    expect(MEDIA_QUERY).to.deep.equal({ input: 'input', type: 'type', time: 'time' });
  });

  it('lays artwork out below the cache folder as the reference does', () => {
    expect(artworkParts('thumbnail', 'Full Sessions', '0123')).to.deep.equal(['thumbnails', 'Full Sessions', '0123.jpeg']);
    expect(artworkParts('waveform', 'Clips', 'abc')).to.deep.equal(['waveforms', 'Clips', 'abc.peaks.json']);
  });

  it('writes the artwork path a frontend asks for with forward slashes under the wire cache folder', () => {
    expect(wireArtworkPath('C:/Keyframe/cache', 'thumbnail', { type: 'Buffer', id: 'x1' })).to.equal(
      'C:/Keyframe/cache/thumbnails/Replay Buffers/x1.jpeg',
    );
    expect(wireArtworkPath('/home/me/cache', 'waveform', { type: 'Highlight', id: 'x2' })).to.equal(
      '/home/me/cache/waveforms/Highlights/x2.peaks.json',
    );
  });

  it('closes WebSockets with the codes frontends act on', () => {
    expect(CLOSE_REPLACED).to.deep.equal({ code: 4000, reason: 'Replaced by a newer connection' });
    expect(CLOSE_SHUTDOWN).to.deep.equal({ code: 1001, reason: 'Keyframe is shutting down' });
    expect(CLOSE_NOT_READING).to.deep.equal({ code: 1008, reason: 'Too much unread output: the frontend stopped reading' });
    expect(CLOSE_PORT_MOVED).to.deep.equal({ code: 1000, reason: 'Port moved - reload' });
  });
});
