// The tape file: `*.tape.jsonl`, line 1 a header, then one line per feed input, recording event or
// game file read, each with `t`, milliseconds since the tape started. Files a tape needs (watched
// files, the PNG frames of screenText feeds) sit beside it in `<name>.files/<feed>/`, and the game
// files the integration read (GameFiles) in `<name>.files/@game/`.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Type, type Static } from '#typebox';
import { describeProblems } from '../../protocol/index.js';
import { FEED_KINDS, type FeedInputs, type FeedKind } from '../../sdk/feed-types.js';
import type { GameFileEntry } from '../../sdk/game-files.js';

export const TAPE_VERSION = 1;

export const TapeHeader = Type.Object({
  tape: Type.Literal(TAPE_VERSION),
  integration: Type.String({ minLength: 1 }),
  recordedAt: Type.String({ description: 'ISO 8601 instant of t = 0' }),
  game: Type.Optional(Type.Object({ name: Type.String(), executablePath: Type.Optional(Type.String()) })),
  description: Type.Optional(Type.String()),
});
export type TapeHeader = Static<typeof TapeHeader>;

export const TapeEntryLine = Type.Union([
  Type.Object({ t: Type.Number({ minimum: 0 }), feed: Type.String({ minLength: 1 }), kind: Type.Enum([...FEED_KINDS]) }),
  Type.Object({ t: Type.Number({ minimum: 0 }), recording: Type.Enum(['started', 'stopped']) }),
  Type.Object({ t: Type.Number({ minimum: 0 }), gameFile: Type.String({ minLength: 1 }) }),
]);

/** What a game file line says of its file: a copy, a folder's listing, or only whether it is there. */
const GameFileLine = Type.Union([
  Type.Object({ snapshot: Type.String({ minLength: 1 }) }),
  Type.Object({
    entries: Type.Array(
      Type.Object({
        name: Type.String({ minLength: 1 }),
        kind: Type.Enum(['file', 'folder']),
        size: Type.Integer({ minimum: 0 }),
        modifiedAt: Type.String(),
      }),
    ),
  }),
  Type.Object({ exists: Type.Boolean() }),
]);

function ConnectionChangeLine() {
  return Type.Object({ connection: Type.Enum(['opened', 'closed']), error: Type.Optional(Type.String()) });
}

/** The input fields each kind of feed entry must carry (beside `t`, `feed` and `kind`). */
const FeedInputLine = {
  httpPush: Type.Object({ method: Type.String(), path: Type.String(), body: Type.String(), userAgent: Type.Optional(Type.String()) }),
  poll: Type.Union([Type.Object({ status: Type.Integer(), body: Type.String() }), Type.Object({ error: Type.String() })]),
  tail: Type.Union([
    Type.Object({ line: Type.String(), file: Type.String() }),
    Type.Object({ reset: Type.Enum(['opened', 'truncated', 'rotated']), file: Type.String() }),
  ]),
  watchFolder: Type.Object({ path: Type.String({ minLength: 1 }), size: Type.Integer({ minimum: 0 }) }),
  screenText: Type.Object({ frame: Type.String({ minLength: 1 }), frameTimeMs: Type.Number({ minimum: 0 }) }),
  tcp: Type.Union([Type.Object({ line: Type.String() }), ConnectionChangeLine()]),
  webSocket: Type.Union([Type.Object({ message: Type.String() }), ConnectionChangeLine()]),
  udp: Type.Object({ message: Type.String(), from: Type.Optional(Type.String()) }),
} satisfies Record<FeedKind, unknown>;

/** A frame a screenText feed read: a PNG beside the tape, read again (real OCR) on replay. */
export interface TapedFrame {
  /** Path of the PNG relative to `<name>.files/<feed>/`, forward slashes. */
  frame: string;
  absolutePath: string;
  /** Milliseconds since the recording started. */
  frameTimeMs: number;
}

/** What a tape line carries per feed kind: the input itself, except screenText, where it is the frame. */
export type TapeInputs = Omit<FeedInputs, 'screenText'> & { screenText: TapedFrame };

export type FeedEntry<K extends FeedKind = FeedKind> = { t: number; feed: string; kind: K; input: TapeInputs[K] };
export type RecordingEntry = { t: number; recording: 'started' | 'stopped' };

/** What the integration found at a game file's place when it read it (GameFiles). */
export type GameFileState =
  /** A file: its copy in `<name>.files/@game/` (`snapshot`, relative to that folder). */
  | { snapshot: string; absolutePath: string }
  | { entries: GameFileEntry[] }
  /** Only looked for (`exists`), or not there at all. */
  | { exists: boolean };
/** `location`: as GameFileLocations names it (`local/Game/player.log`, or an absolute path). */
export type GameFileTapeEntry = { t: number; gameFile: string; state: GameFileState };
export type TapeEntry = FeedEntry | RecordingEntry | GameFileTapeEntry;

export interface Tape {
  file: string;
  header: TapeHeader;
  entries: TapeEntry[];
  /** The line number in the file of each entry, for messages. */
  lineNumbers: number[];
}

export const isFeedEntry = (entry: TapeEntry): entry is FeedEntry => 'feed' in entry;
export const isRecordingEntry = (entry: TapeEntry): entry is RecordingEntry => 'recording' in entry;
export const isGameFileEntry = (entry: TapeEntry): entry is GameFileTapeEntry => 'gameFile' in entry;

/** The folder of a tape's game file copies, laid out by location (`home/…`, `steam/0/…`, `absolute/…`). */
export const GAME_FILES_FOLDER = '@game';

/** Where the files of a tape's watchFolder feed are kept. */
export const tapeFilesFolder = (tapeFile: string, feed: string) =>
  path.join(path.resolve(path.dirname(tapeFile)), `${path.basename(tapeFile).replace(/\.tape\.jsonl$/, '')}.files`, feed);

/** A game file line: `{t, gameFile, snapshot | entries | exists}`. */
export function gameFileEntryLine({ t, gameFile, state }: GameFileTapeEntry): string {
  if ('snapshot' in state) return JSON.stringify({ t, gameFile, snapshot: state.snapshot });
  if ('entries' in state) {
    const entries = state.entries.map(({ name, kind, size, modifiedAt }) => ({ name, kind, size, modifiedAt: modifiedAt.toISOString() }));
    return JSON.stringify({ t, gameFile, entries });
  }
  return JSON.stringify({ t, gameFile, exists: state.exists });
}

/** A feed input as one tape line: `{t, feed, kind, ...input}` (absolute paths of files and frames are not kept). */
export function feedEntryLine(entry: FeedEntry): string {
  return JSON.stringify({ t: entry.t, feed: entry.feed, kind: entry.kind, ...lineInput(entry) });
}

function lineInput(entry: FeedEntry): object {
  if (entry.kind === 'watchFolder') {
    const { path: relativePath, size } = entry.input as TapeInputs['watchFolder'];
    return { path: relativePath, size };
  }
  if (entry.kind === 'screenText') {
    const { frame, frameTimeMs } = entry.input as TapeInputs['screenText'];
    return { frame, frameTimeMs };
  }
  return entry.input;
}

export async function readTape(file: string): Promise<Tape> {
  // Numbered as in the file: blank lines (a trailing one, or one left by hand) are skipped, not renumbered.
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(error.code === 'ENOENT' ? `${file}: no such tape` : `${file}: ${error.message}`);
  });
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((text, index) => ({ text, number: index + 1 }))
    .filter(({ text }) => text.trim() !== '');
  const fail = (number: number, message: string): never => {
    throw new Error(`${file}:${number}: ${message}`);
  };
  const parse = ({ text, number }: { text: string; number: number }): unknown => {
    try {
      return JSON.parse(text);
    } catch (error) {
      return fail(number, `not JSON (${(error as Error).message})`);
    }
  };
  if (lines.length === 0) throw new Error(`${file}: empty tape`);
  const header = parse(lines[0]!);
  const version = (header as { tape?: unknown } | null)?.tape;
  if (typeof version === 'number' && version !== TAPE_VERSION) {
    fail(lines[0]!.number, `bad tape header: tape version ${version} is not supported (this Keyframe reads version ${TAPE_VERSION})`);
  }
  const headerProblems = describeProblems(TapeHeader, header);
  if (headerProblems.length > 0) fail(lines[0]!.number, `bad tape header: ${headerProblems.join('; ')}`);

  const entries: TapeEntry[] = [];
  const lineNumbers: number[] = [];
  for (const line of lines.slice(1)) {
    const entry = parseEntry(file, parse(line), (message) => fail(line.number, `bad tape entry: ${message}`));
    if (entries.length > 0 && entry.t < entries.at(-1)!.t) fail(line.number, `t goes back in time (${entry.t} after ${entries.at(-1)!.t})`);
    entries.push(entry);
    lineNumbers.push(line.number);
  }
  return { file, header: header as TapeHeader, entries, lineNumbers };
}

function parseEntry(file: string, value: unknown, fail: (message: string) => never): TapeEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('not a JSON object');
  const line = value as Record<string, unknown>;
  if (!('recording' in line) && typeof line.kind === 'string' && !(FEED_KINDS as readonly string[]).includes(line.kind)) {
    return fail(`unknown feed kind ${JSON.stringify(line.kind)} (known: ${FEED_KINDS.join(', ')})`);
  }
  const problems = describeProblems(TapeEntryLine, line);
  if (problems.length > 0) return fail(problems.join('; '));
  if ('recording' in line) return { t: line.t as number, recording: line.recording as RecordingEntry['recording'] };
  if ('gameFile' in line) return parseGameFileEntry(file, line as { t: number; gameFile: string }, fail);

  const { t, feed, kind, ...input } = line as { t: number; feed: string; kind: FeedKind };
  const inputProblems = describeProblems(FeedInputLine[kind], input);
  if (inputProblems.length > 0) return fail(`${kind} input: ${inputProblems.join('; ')}`);
  if (kind === 'watchFolder') {
    const { path: relativePath, size } = input as { path: string; size: number };
    const absolutePath = tapeFile(file, feed, relativePath, () =>
      fail(`watchFolder path ${JSON.stringify(relativePath)} is not inside the tape's files folder`),
    );
    return { t, feed, kind, input: { path: relativePath, size, absolutePath } };
  }
  if (kind === 'screenText') {
    const { frame, frameTimeMs } = input as { frame: string; frameTimeMs: number };
    const absolutePath = tapeFile(file, feed, frame, () =>
      fail(`screenText frame ${JSON.stringify(frame)} is not inside the tape's files folder`),
    );
    return { t, feed, kind, input: { frame, frameTimeMs, absolutePath } };
  }
  return { t, feed, kind, input: input as TapeInputs[FeedKind] };
}

function parseGameFileEntry(file: string, line: { t: number; gameFile: string }, fail: (message: string) => never): GameFileTapeEntry {
  const { t, gameFile, ...said } = line;
  const problems = describeProblems(GameFileLine, said);
  if (problems.length > 0) return fail(`game file ${JSON.stringify(gameFile)}: ${problems.join('; ')}`);
  if ('snapshot' in said) {
    const snapshot = said.snapshot as string;
    const absolutePath = tapeFile(file, GAME_FILES_FOLDER, snapshot, () =>
      fail(`game file snapshot ${JSON.stringify(snapshot)} is not inside the tape's files folder`),
    );
    return { t, gameFile, state: { snapshot, absolutePath } };
  }
  if ('entries' in said) {
    const entries = (said.entries as (Omit<GameFileEntry, 'modifiedAt'> & { modifiedAt: string })[]).map((entry) => ({
      ...entry,
      modifiedAt: new Date(entry.modifiedAt),
    }));
    return { t, gameFile, state: { entries } };
  }
  return { t, gameFile, state: { exists: (said as { exists: boolean }).exists } };
}

/** A file of the tape's own: a path that leaves `<name>.files/<feed>/` is refused. */
function tapeFile(file: string, feed: string, relativePath: string, refuse: () => never): string {
  const folder = tapeFilesFolder(file, feed);
  const absolutePath = path.resolve(folder, relativePath);
  if (path.isAbsolute(relativePath) || !absolutePath.startsWith(folder + path.sep)) return refuse();
  return absolutePath;
}
