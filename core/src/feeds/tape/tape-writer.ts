// Records a tape while someone plays: every input of the integration's live feeds, as it arrives.
import { appendFileSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FeedInputs } from '../types.js';
import type { ObservedInput } from '../feed-observer.js';
import { feedEntryLine, tapeFilesFolder, TAPE_VERSION, type TapeHeader } from './tape-format.js';

export class TapeWriter {
  private readonly startedAt: Date;
  private entries = 0;

  constructor(private readonly file: string, header: Omit<TapeHeader, 'tape' | 'recordedAt'>, startedAt = new Date()) {
    this.startedAt = startedAt;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ tape: TAPE_VERSION, ...header, recordedAt: startedAt.toISOString() })}\n`);
  }

  get count(): number {
    return this.entries;
  }

  /** Appends one input; a watched file is copied beside the tape so the tape is complete on its own. */
  write(observed: ObservedInput): void {
    const t = Math.max(0, observed.at.getTime() - this.startedAt.getTime());
    if (observed.kind === 'watchFolder') {
      const input = observed.input as FeedInputs['watchFolder'];
      const copy = path.join(tapeFilesFolder(this.file, observed.feed), input.path);
      mkdirSync(path.dirname(copy), { recursive: true });
      copyFileSync(input.absolutePath, copy);
    }
    // Appended synchronously: a tape cut short by Ctrl+C keeps every input written so far.
    appendFileSync(this.file, `${feedEntryLine({ t, feed: observed.feed, kind: observed.kind, input: observed.input })}\n`);
    this.entries += 1;
  }

  recording(event: 'started' | 'stopped', at = new Date()): void {
    appendFileSync(this.file, `${JSON.stringify({ t: Math.max(0, at.getTime() - this.startedAt.getTime()), recording: event })}\n`);
  }
}
