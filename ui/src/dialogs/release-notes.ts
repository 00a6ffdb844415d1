import type { ReleaseNote } from '@keyframe/core/protocol';
import compareVersions from 'semver/functions/compare';
import parseVersion from 'semver/functions/valid';

/**
 * What to show for `ShowReleaseNotes(previous)` once `running` started (the backend sends the version the
 * user updated from): the notes of every release after `previous` up to `running`, newest first, in semver
 * order, where a pre-release comes before its release (1.2.0-beta.1 < 1.2.0-beta.2 < 1.2.0). So a beta user
 * updating from 1.2.0-beta.2 to 1.2.0 reads only 1.2.0's notes, and a release published after `running` is not
 * "new" to someone who does not run it yet. Notes whose version is not semver are left out; when `previous`
 * is not semver either, only the running version's own notes are shown. `running` is unknown before the
 * backend's AppVersion arrives: then nothing bounds the list from above.
 */
export function notesSince(notes: ReleaseNote[], previous: string, running?: string): ReleaseNote[] {
  const since = parseVersion(previous);
  const until = running === undefined ? undefined : (parseVersion(running) ?? undefined);
  const shown = notes.filter((note) => {
    const version = parseVersion(note.version);
    if (version === null) return false;
    if (since === null) return version === until;
    return compareVersions(version, since) > 0 && (until === undefined || compareVersions(version, until) <= 0);
  });
  return shown.sort((a, b) => compareVersions(b.version, a.version));
}
