// Records a tape while someone plays: every input of the integration's live feeds, as it arrives.
import { appendFileSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodePng } from '../screen-text/png.js';
import type { FeedInputs, FeedKind } from '../../sdk/feed-types.js';
import type { ObservedInput } from '../../sdk/feed-observer.js';
import { feedEntryLine, tapeFilesFolder, TAPE_VERSION, type TapeHeader, type TapeInputs } from './tape-format.js';

export class TapeWriter {
  private readonly startedAt: Date;
  private entries = 0;
  /** The `t` last written: lines never go back in time, which readTape refuses. */
  private lastT = 0;

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

  recording(event: 'started' | 'stopped', at = new Date()): void {
    appendFileSync(this.file, `${JSON.stringify({ t: this.nextT(at), recording: event })}\n`);
  }

  private nextT(at: Date): number {
    this.lastT = Math.max(this.lastT, at.getTime() - this.startedAt.getTime());
    return this.lastT;
  }
}
