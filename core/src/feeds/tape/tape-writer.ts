// Records a tape while someone plays: every input of the integration's live feeds, as it arrives.
import { appendFileSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodePng } from '../screen-text/png.js';
import type { FeedInputs, FeedKind } from '../../sdk/feed-types.js';
import type { ObservedInput } from '../../sdk/feed-observer.js';
import type { GameFileEntry } from '../../sdk/game-files.js';
import {
  feedEntryLine,
  GAME_FILES_FOLDER,
  gameFileEntryLine,
  tapeFilesFolder,
  TAPE_VERSION,
  type TapeHeader,
  type TapeInputs,
} from './tape-format.js';

/** What the integration found at a game file's place: the file's bytes, a folder's listing, or whether anything is there. */
export type ReadGameFile = { bytes: Uint8Array } | { entries: GameFileEntry[] } | { exists: boolean };

export class TapeWriter {
  private readonly startedAt: Date;
  private entries = 0;
  /** The `t` last written: lines never go back in time, which readTape refuses. */
  private lastT = 0;
  /** How many copies of each game file location the tape holds. */
  private readonly copies = new Map<string, number>();

  constructor(
    private readonly file: string,
    header: Omit<TapeHeader, 'tape' | 'recordedAt'>,
    startedAt = new Date(),
  ) {
    this.startedAt = startedAt;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ tape: TAPE_VERSION, ...header, recordedAt: startedAt.toISOString() })}\n`);
  }

  get count(): number {
    return this.entries;
  }

  /**
   * Appends one input. A watched file is copied beside the tape, and the frame a screenText input
   * was read from is saved there as PNG, so the tape is complete on its own.
   */
  write(observed: ObservedInput): void {
    // `at` is when the input arrived, but lines are written as inputs are handed over: an input that
    // waited for its busy handler comes after a later one of another feed, and keeps that one's t.
    const t = this.nextT(observed.at);
    const input = this.keepFiles(observed);
    // Appended synchronously: a tape cut short by Ctrl+C keeps every input written so far.
    appendFileSync(this.file, `${feedEntryLine({ t, feed: observed.feed, kind: observed.kind, input })}\n`);
    this.entries += 1;
  }

  private keepFiles(observed: ObservedInput): TapeInputs[FeedKind] {
    const folder = tapeFilesFolder(this.file, observed.feed);
    if (observed.kind === 'watchFolder') {
      const input = observed.input as FeedInputs['watchFolder'];
      const copy = path.join(folder, input.path);
      mkdirSync(path.dirname(copy), { recursive: true });
      copyFileSync(input.absolutePath, copy);
      return input;
    }
    if (observed.kind === 'screenText') {
      if (!observed.frame) throw new Error(`screenText feed "${observed.feed}": the input came without its frame, so it cannot be taped`);
      const frameTimeMs = (observed.input as FeedInputs['screenText']).frameTimeMs;
      const frame = `${String(frameTimeMs).padStart(9, '0')}.png`;
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, frame), encodePng(observed.frame));
      return { frame, frameTimeMs, absolutePath: path.join(folder, frame) };
    }
    return observed.input as TapeInputs[FeedKind];
  }

  /**
   * Appends what the integration found at a game file's `location` (GameFileLocations); a file's bytes
   * are copied into `<name>.files/@game/<location>` (`#2`, `#3`… after it for later, different contents).
   */
  gameFile(location: string, found: ReadGameFile, at = new Date()): void {
    const t = this.nextT(at);
    if (!('bytes' in found)) {
      appendFileSync(this.file, `${gameFileEntryLine({ t, gameFile: location, state: found })}\n`);
      return;
    }
    const copy = (this.copies.get(location) ?? 0) + 1;
    this.copies.set(location, copy);
    // An absolute location (outside every GamePaths folder) is kept under absolute/, its drive letter a folder.
    const relative =
      path.isAbsolute(location) || path.win32.isAbsolute(location) ? `absolute/${location.replace(/[:\\]/g, '/')}` : location;
    const snapshot = `${relative.replace(/\/+/g, '/').replace(/^\//, '')}${copy > 1 ? `#${copy}` : ''}`;
    const absolutePath = path.join(tapeFilesFolder(this.file, GAME_FILES_FOLDER), snapshot);
    mkdirSync(path.dirname(absolutePath), { recursive: true });
    writeFileSync(absolutePath, found.bytes);
    appendFileSync(this.file, `${gameFileEntryLine({ t, gameFile: location, state: { snapshot, absolutePath } })}\n`);
  }

  recording(event: 'started' | 'stopped', at = new Date()): void {
    appendFileSync(this.file, `${JSON.stringify({ t: this.nextT(at), recording: event })}\n`);
  }

  private nextT(at: Date): number {
    this.lastT = Math.max(this.lastT, at.getTime() - this.startedAt.getTime());
    return this.lastT;
  }
}
