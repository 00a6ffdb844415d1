import type { ReleaseNote } from '@keyframe/core/protocol';

/** Compares `1.2.10` and `1.3.0` part by part as numbers; anything after `-` or `+` is ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string) =>
    version
      .split(/[-+]/)[0]!
      .split('.')
      .map((part) => Number.parseInt(part, 10) || 0);
  const [left, right] = [parts(a), parts(b)];
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * What to show for `ShowReleaseNotes(version)`: the backend sends the version the user updated from,
 * so the notes of every newer release are shown, newest first; that version's own notes when none is newer.
 */
export function notesSince(notes: ReleaseNote[], version: string): ReleaseNote[] {
  const newer = notes.filter((note) => compareVersions(note.version, version) > 0);
  const chosen = newer.length > 0 ? newer : notes.filter((note) => note.version === version);
  return [...chosen].sort((a, b) => compareVersions(b.version, a.version));
}
