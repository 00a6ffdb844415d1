// Test support: writes a tape of the `replays` watchFolder feed (with its files folder and expected
// bookmarks) from generated replay folders, as `keyframe tape record` would have recorded them.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { watchedReplayFiles, writeGeneratedFile, type GeneratedFile, type GeneratedReplay } from './replay-generator.js';

export interface TapedReplay {
  replay: GeneratedReplay;
  /** When the game saved it (ms since the tape's start); the files reach the feed 100 ms apart from there. */
  savedAtMs: number;
  /** The info file first instead of last. */
  infoFirst?: boolean;
  /** Replaces the bytes of some files (by name inside the replay folder, e.g. `events/kill0`). */
  damage?: Record<string, (bytes: Buffer) => Buffer>;
}

export interface TapeCase {
  name: string;
  description: string;
  /** ISO instant of t = 0. */
  recordedAt: string;
  /** Recordings (ms since t = 0); without them, one recording spans the whole tape. */
  recordings?: { startMs: number; stopMs: number }[];
  replays: TapedReplay[];
  expected: { type: 'Kill' | 'Death'; time: number; recording?: number }[];
}

type TapeLine = { t: number } & (
  { feed: 'replays'; kind: 'watchFolder'; path: string; size: number } | { recording: 'started' | 'stopped' }
);

/** The files of a taped replay as the feed delivers them: only those the integration watches, in delivery order. */
function deliveredFiles(taped: TapedReplay): GeneratedFile[] {
  const files = watchedReplayFiles(taped.replay).map((file) => {
    const damage = taped.damage?.[file.path.slice(taped.replay.folder.length + 1)];
    return damage ? { ...file, bytes: damage(file.bytes) } : file;
  });
  return taped.infoFirst ? [files.at(-1)!, ...files.slice(0, -1)] : files;
}

/** Writes `<name>.tape.jsonl`, `<name>.expected.json` and `<name>.files/replays/…` into `folder`. */
export async function writeTapeCase(folder: string, tapeCase: TapeCase): Promise<void> {
  const lines: TapeLine[] = [];
  for (const recording of tapeCase.recordings ?? []) {
    lines.push({ t: recording.startMs, recording: 'started' }, { t: recording.stopMs, recording: 'stopped' });
  }
  const filesFolder = path.join(folder, `${tapeCase.name}.files`, 'replays');
  await rm(path.join(folder, `${tapeCase.name}.files`), { recursive: true, force: true });
  for (const taped of tapeCase.replays) {
    for (const [index, file] of deliveredFiles(taped).entries()) {
      await writeGeneratedFile(filesFolder, file);
      lines.push({ t: taped.savedAtMs + index * 100, feed: 'replays', kind: 'watchFolder', path: file.path, size: file.bytes.length });
    }
  }
  // Stable: a recording event and a file at the same time keep the order above (a stop comes before a file saved as it stops).
  lines.sort((a, b) => a.t - b.t);
  const header = {
    tape: 1,
    integration: 'battleRoyale',
    recordedAt: tapeCase.recordedAt,
    game: { name: 'PUBG: Battlegrounds' },
    description: tapeCase.description,
  };
  await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(folder, `${tapeCase.name}.tape.jsonl`),
    `${[header, ...lines].map((line) => JSON.stringify(line)).join('\n')}\n`,
  );
  await writeFile(
    path.join(folder, `${tapeCase.name}.expected.json`),
    `${JSON.stringify({ tolerance: 0.05, bookmarks: tapeCase.expected }, null, 2)}\n`,
  );
}
