// Release notes as the frontend receives them (base64 Markdown), built from the update feed and
// cached in the data folder so a frontend gets them at once, even offline.
import { readFile } from 'node:fs/promises';
import { Type } from '#typebox';
import { describeProblems, ReleaseNote } from '../protocol/index.js';
import { writeFileAtomic } from '../support/atomic-file.js';
import type { FeedRelease } from './update-feed.js';

const MAX_NOTES = 20;
const CachedNotes = Type.Array(ReleaseNote);

/** The newest releases' notes (at most 20), newest first; `releases` are already sorted. */
export function releaseNotesOf(releases: readonly FeedRelease[]): ReleaseNote[] {
  return releases.slice(0, MAX_NOTES).map((release) => ({
    version: release.version,
    base64Markdown: Buffer.from(release.notes.trim() || `No release notes available for version ${release.version}.`, 'utf8').toString(
      'base64',
    ),
    releaseDate: release.releaseDate,
  }));
}

export class ReleaseNotesCache {
  constructor(private readonly file: string) {}

  /** The cached notes; none when there is no cache or it is damaged. */
  async load(): Promise<ReleaseNote[]> {
    try {
      const cached: unknown = JSON.parse(await readFile(this.file, 'utf8'));
      return describeProblems(CachedNotes, cached).length === 0 ? (cached as ReleaseNote[]) : [];
    } catch {
      return [];
    }
  }

  save(notes: readonly ReleaseNote[]): Promise<void> {
    return writeFileAtomic(this.file, JSON.stringify(notes));
  }
}
