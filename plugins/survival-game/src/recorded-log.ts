// Test support: the real Rust client log lines in ../shared/game-data/survival-game (see its
// SOURCES.md), and a skip with a reason for when that folder is not there.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

// The compiled tests run from plugins/survival-game/dist/.
export const RECORDED_LOG = fileURLToPath(
  new URL('../../../../shared/game-data/survival-game/rust-output_log-lines-quoted-in-parser-source.txt', import.meta.url),
);

/** Skips the running test or hook when the recorded lines are absent; mocha's skip takes no reason, so the title carries it. */
export function skipWithoutRecordedLog(context: Mocha.Context): void {
  if (existsSync(RECORDED_LOG)) return;
  const runnable = context.currentTest ?? context.test;
  if (runnable) runnable.title += ` (skipped: recorded Rust log lines not found at ${RECORDED_LOG})`;
  context.skip();
}

/** The recorded lines, in file order, without blank ones. */
export async function readRecordedLines(): Promise<string[]> {
  return (await readFile(RECORDED_LOG, 'utf8')).split('\n').filter((line) => line.trim() !== '');
}
