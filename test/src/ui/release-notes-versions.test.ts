// Which release notes the "What's new" dialog shows after an update: the UI's own rule, run in Node.
import { expect } from 'chai';
import type { ReleaseNote } from '@keyframe/core/protocol';
import { importUiModule } from '../kit/ui-module.js';

interface ReleaseNotesModule {
  notesSince(notes: ReleaseNote[], previous: string, running?: string): ReleaseNote[];
}

const note = (version: string): ReleaseNote => ({ version, releaseDate: '2026-11-20T12:00:00Z', base64Markdown: '' });
const FEED = ['1.1.0', '1.2.0-beta.1', '1.2.0-beta.2', '1.2.0-rc.1', '1.2.0', '1.2.1', '1.10.0', 'nightly'].map(note);

describe('ui: release notes shown after an update', () => {
  let notesSince: ReleaseNotesModule['notesSince'];
  before(async function () {
    this.timeout(20_000);
    ({ notesSince } = await importUiModule<ReleaseNotesModule>('dialogs/release-notes.ts'));
  });
  const shown = (previous: string, running?: string) => notesSince(FEED, previous, running).map((entry) => entry.version);

  it('a beta user updating to the release reads the release’s notes, not the betas they already ran', () => {
    expect(shown('1.2.0-beta.2', '1.2.0')).to.deep.equal(['1.2.0', '1.2.0-rc.1']);
    expect(shown('1.2.0-rc.1', '1.2.0')).to.deep.equal(['1.2.0']);
  });

  it('orders pre-releases by semver, newest first, up to the running version', () => {
    expect(shown('1.1.0', '1.2.0-beta.2')).to.deep.equal(['1.2.0-beta.2', '1.2.0-beta.1']);
    expect(shown('1.1.0', '1.2.0')).to.deep.equal(['1.2.0', '1.2.0-rc.1', '1.2.0-beta.2', '1.2.0-beta.1']);
  });

  it('compares the parts as numbers (1.10.0 after 1.2.1), and leaves out releases after the running one', () => {
    expect(shown('1.2.0', '1.10.0')).to.deep.equal(['1.10.0', '1.2.1']);
    expect(shown('1.2.0', '1.2.1')).to.deep.equal(['1.2.1']);
    expect(shown('1.2.0'), 'the running version not known yet').to.deep.equal(['1.10.0', '1.2.1']);
  });

  it('shows nothing when nothing is newer, and only the running version’s notes when the previous version is unreadable', () => {
    expect(shown('1.10.0', '1.10.0')).to.deep.equal([]);
    expect(shown('an old build', '1.2.0')).to.deep.equal(['1.2.0']);
    expect(shown('an old build')).to.deep.equal([]);
  });
});
