import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ReleaseNotesCache, releaseNotesOf } from './release-notes.js';
import type { FeedRelease } from './update-feed.js';

const release = (version: string, notes: string): FeedRelease => ({
  version,
  channel: 'stable',
  url: `https://example.test/${version}.tar.gz`,
  size: 1,
  sha256: '0'.repeat(64),
  releaseDate: '2026-11-01T00:00:00Z',
  notes,
});

describe('release notes', () => {
  it('carries Markdown as base64 (UTF-8), with a text for releases without notes', () => {
    const [withNotes, without] = releaseNotesOf([release('1.1.0', '## New\n- Clips in 4K ✂'), release('1.0.0', '  ')]);
    expect(withNotes).to.deep.equal({
      version: '1.1.0',
      base64Markdown: Buffer.from('## New\n- Clips in 4K ✂').toString('base64'),
      releaseDate: '2026-11-01T00:00:00Z',
    });
    expect(Buffer.from(without!.base64Markdown, 'base64').toString()).to.equal('No release notes available for version 1.0.0.');
  });

  it('keeps the newest 20', () => {
    const many = Array.from({ length: 25 }, (_, index) => release(`1.${25 - index}.0`, 'notes'));
    expect(releaseNotesOf(many).map((note) => note.version)).to.deep.equal(many.slice(0, 20).map((entry) => entry.version));
  });

  it('caches notes in a file and ignores a damaged cache', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-notes-'));
    try {
      const cache = new ReleaseNotesCache(path.join(folder, 'updates', 'release-notes.json'));
      expect(await cache.load()).to.deep.equal([]);
      const notes = releaseNotesOf([release('1.1.0', 'notes')]);
      await cache.save(notes);
      expect(await cache.load()).to.deep.equal(notes);
      await writeFile(path.join(folder, 'updates', 'release-notes.json'), '[{"version": 1}]');
      expect(await cache.load()).to.deep.equal([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
