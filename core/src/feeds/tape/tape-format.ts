// The tape file: `*.tape.jsonl`, line 1 a header, then one line per feed input or recording event,
// each with `t`, milliseconds since the tape started. Files a tape needs sit beside it in
// `<name>.files/<feed>/`.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Type, { type Static } from 'typebox';
import { describeProblems } from '../../protocol/index.js';
import type { FeedInputs, FeedKind } from '../types.js';

export const TAPE_VERSION = 1;

export const TapeHeader = Type.Object({
  tape: Type.Literal(TAPE_VERSION),
  integration: Type.String({ minLength: 1 }),
  recordedAt: Type.String({ description: 'ISO 8601 instant of t = 0' }),
  game: Type.Optional(Type.Object({ name: Type.String(), executablePath: Type.Optional(Type.String()) })),
  description: Type.Optional(Type.String()),
});
export type TapeHeader = Static<typeof TapeHeader>;

const FEED_KINDS = ['httpPush', 'poll', 'tail', 'watchFolder'] as const satisfies readonly FeedKind[];

export const TapeEntryLine = Type.Union([
  Type.Object({ t: Type.Number({ minimum: 0 }), feed: Type.String({ minLength: 1 }), kind: Type.Enum([...FEED_KINDS]) }),
  Type.Object({ t: Type.Number({ minimum: 0 }), recording: Type.Enum(['started', 'stopped']) }),
]);

export type FeedEntry<K extends FeedKind = FeedKind> = { t: number; feed: string; kind: K; input: FeedInputs[K] };
export type RecordingEntry = { t: number; recording: 'started' | 'stopped' };
export type TapeEntry = FeedEntry | RecordingEntry;

export interface Tape {
  file: string;
  header: TapeHeader;
  entries: TapeEntry[];
}

export const isFeedEntry = (entry: TapeEntry): entry is FeedEntry => 'feed' in entry;

/** Where the files of a tape's watchFolder feed are kept. */
export const tapeFilesFolder = (tapeFile: string, feed: string) =>
  path.join(path.dirname(tapeFile), `${path.basename(tapeFile).replace(/\.tape\.jsonl$/, '')}.files`, feed);

/** A feed input as one tape line: `{t, feed, kind, ...input}` (a watched file's absolute path is not kept). */
export function feedEntryLine(entry: FeedEntry): string {
  const input = entry.kind === 'watchFolder'
    ? { path: (entry.input as FeedInputs['watchFolder']).path, size: (entry.input as FeedInputs['watchFolder']).size }
    : entry.input;
  return JSON.stringify({ t: entry.t, feed: entry.feed, kind: entry.kind, ...input });
}

export async function readTape(file: string): Promise<Tape> {
  const lines = (await readFile(file, 'utf8')).split(/\r?\n/).filter((line) => line.trim() !== '');
  const parse = (line: string, number: number): unknown => {
    try {
      return JSON.parse(line);
    } catch (error) {
      throw new Error(`${file}:${number}: not JSON (${(error as Error).message})`);
    }
  };
  if (lines.length === 0) throw new Error(`${file}: empty tape`);
  const header = parse(lines[0]!, 1);
  const headerProblems = describeProblems(TapeHeader, header);
  if (headerProblems.length > 0) throw new Error(`${file}:1: bad tape header: ${headerProblems.join('; ')}`);

  const entries = lines.slice(1).map((line, index): TapeEntry => {
    const number = index + 2;
    const value = parse(line, number) as Record<string, unknown>;
    const problems = describeProblems(TapeEntryLine, value);
    if (problems.length > 0) throw new Error(`${file}:${number}: bad tape entry: ${problems.join('; ')}`);
    if ('recording' in value) return { t: value.t as number, recording: value.recording as RecordingEntry['recording'] };
    const { t, feed, kind, ...input } = value as { t: number; feed: string; kind: FeedKind };
    const entryInput = kind === 'watchFolder'
      ? { ...(input as Omit<FeedInputs['watchFolder'], 'absolutePath'>), absolutePath: path.join(tapeFilesFolder(file, feed), (input as { path: string }).path) }
      : input;
    return { t, feed, kind, input: entryInput as FeedInputs[FeedKind] };
  });
  for (let index = 1; index < entries.length; index++) {
    if (entries[index]!.t < entries[index - 1]!.t) throw new Error(`${file}:${index + 2}: t goes back in time`);
  }
  return { file, header: header as TapeHeader, entries };
}
