import { expect } from 'chai';
import { formatLocalDateTime } from '../protocol/index.js';
import { fromWireBookmark, toContentItem, toWireBookmark, type ContentRecord } from './content-item.js';

describe('toContentItem', () => {
  const createdAt = new Date('2026-03-14T09:26:54.622Z');
  const bare: ContentRecord = {
    id: 'a'.repeat(32),
    type: 'Clip',
    title: '',
    game: 'Unknown',
    bookmarks: [],
    fileName: 'c',
    filePath: '/v/Clips/Unknown/c.mp4',
    durationSeconds: 0.9,
    createdAt,
    isImported: true,
    compressed: false,
  };

  it('shows what a record leaves out as the wire does: null, `Unknown` size, no uploadUrl', () => {
    expect(toContentItem(bare)).to.deep.equal({
      id: 'a'.repeat(32),
      type: 'Clip',
      title: '',
      game: 'Unknown',
      bookmarks: [],
      fileName: 'c',
      filePath: '/v/Clips/Unknown/c.mp4',
      fileSize: 'Unknown',
      fileSizeKb: 0,
      duration: '00:00:00.9000000',
      createdAt: formatLocalDateTime(createdAt),
      aiAnalysis: null,
      uploadId: null,
      gameDatabaseId: null,
      audioTrackNames: null,
      isImported: true,
      compressed: false,
    });
  });

  it('formats seconds, bytes and dates, keeps the wire order (uploadUrl last) and hides what only the service needs', () => {
    const item = toContentItem({
      ...bare,
      type: 'Session',
      sizeBytes: 26 * 1024 + 100,
      durationSeconds: 90061.5,
      uploadId: 'u1',
      uploadUrl: 'https://x/watch/u1',
      gameDatabaseId: 7,
      audioTrackNames: ['Full Mix'],
      gameExePath: 'C:/g.exe',
      recordedFrom: createdAt,
      recordedUntil: createdAt,
      bookmarks: [{ id: 2, type: 'Kill', subtype: 'headshot', seconds: 0.7, aiRating: 3 }],
    });
    expect(Object.keys(item).at(-1)).to.equal('uploadUrl');
    expect(item).to.deep.include({
      fileSize: '0.03 MB',
      fileSizeKb: 26,
      duration: '1.01:01:01.5000000',
      uploadId: 'u1',
      gameDatabaseId: 7,
      audioTrackNames: ['Full Mix'],
      bookmarks: [{ id: 2, type: 'Kill', subtype: 'headshot', time: '00:00:00.7000000', aiRating: 3 }],
    });
    expect(item).to.not.have.any.keys('gameExePath', 'recordedFrom', 'recordedUntil', 'sizeBytes', 'durationSeconds');
  });

  it('turns wire bookmarks into seconds and back', () => {
    const wire = { id: 1, type: 'Manual' as const, subtype: null, time: '00:00:00.2500000', aiRating: null };
    expect(fromWireBookmark(wire)).to.deep.equal({ id: 1, type: 'Manual', seconds: 0.25 });
    expect(toWireBookmark(fromWireBookmark(wire))).to.deep.equal(wire);
  });
});
