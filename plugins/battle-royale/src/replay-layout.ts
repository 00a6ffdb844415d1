// Where PUBG keeps its replays and what each file of a replay folder is.
import path from 'node:path';

/** `<local app data>/TslGame/Saved/Demos`: one sub-folder per match (`match.bro.official.<...>`). */
export function demosFolderOf(localAppData: string): string {
  return path.join(localAppData, 'TslGame', 'Saved', 'Demos');
}

export const REPLAY_INFO_FILE = 'PUBG.replayinfo';

/** The files of a replay folder the integration reads, relative to the Demos folder; the large demo chunks are left alone. */
export const REPLAY_FILE_PATTERN = /^[^/]+\/(PUBG\.replayinfo|events\/[^/]+)$/;

/** Where a file given relative to the Demos folder (forward slashes, as feeds and listings name it) is on disk. */
export function replayFilePath(demosFolder: string, relativePath: string): string {
  return path.join(demosFolder, ...relativePath.split('/'));
}

interface ReplayFileBase {
  /** The replay folder's name, which identifies the match. */
  replay: string;
  /** Relative to the Demos folder, forward slashes. */
  path: string;
}
export interface InfoFile extends ReplayFileBase {
  kind: 'info';
}
export interface EventFile extends ReplayFileBase {
  kind: 'knock' | 'kill';
}
export type ReplayFile = InfoFile | EventFile;

/**
 * What a file (path relative to the Demos folder) is, or undefined for files that carry no kill or death:
 * knocks are `events/DBNO*` (older replays name them `events/groggy*`), kills `events/kill*`.
 */
export function replayFileOf(relativePath: string): ReplayFile | undefined {
  const parts = relativePath.split('/');
  const replay = parts[0];
  if (!replay) return undefined;
  if (parts.length === 2 && parts[1] === REPLAY_INFO_FILE) return { replay, kind: 'info', path: relativePath };
  if (parts.length !== 3 || parts[1] !== 'events') return undefined;
  const name = parts[2]!.toLowerCase();
  if (name.startsWith('dbno') || name.startsWith('groggy')) return { replay, kind: 'knock', path: relativePath };
  if (name.startsWith('kill')) return { replay, kind: 'kill', path: relativePath };
  return undefined;
}
