// The real Rust client log lines in the game data folder survival-game (see its SOURCES.md). Found,
// read and skipped for by the test kit's gameData().
import { gameData } from '@keyframe/integration-testkit';

export const recordedData = gameData('survival-game', 'recorded Rust log lines');

export const RECORDED_LOG_FILE = 'rust-output_log-lines-quoted-in-parser-source.txt';

/** The recorded lines, in file order, without blank ones. */
export function readRecordedLines(): string[] {
  return recordedData.lines(RECORDED_LOG_FILE).filter((line) => line.trim() !== '');
}
