// Recorded game data (real payloads, logs, API answers) that tests read where it lies, kept out of the
// package itself: a folder `<root>/<name>`, the root being KEYFRAME_GAME_DATA or the default below.
// Tests that need it skip, saying where they looked, when it is absent (a fresh clone, a third party's
// checkout without the recordings).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The environment variable naming the folder that holds one folder of recordings per game. */
export const GAME_DATA_VARIABLE = 'KEYFRAME_GAME_DATA';

// Run from testkit/dist/ of the Keyframe repository, the default is ../shared/game-data beside the
// repository; installed (in a node_modules folder), it is `game-data` in the folder the tests run from.
const KIT_FOLDER = fileURLToPath(new URL('../', import.meta.url));
const defaultRoot = () =>
  KIT_FOLDER.split(path.sep).includes('node_modules')
    ? path.resolve('game-data')
    : fileURLToPath(new URL('../../../shared/game-data/', import.meta.url));

export class GameData {
  /** `what`: the recordings in a person's words, for the skip message (e.g. "recorded CS2 payloads"). */
  constructor(
    readonly name: string,
    readonly folder: string,
    readonly what: string,
  ) {}

  get present(): boolean {
    return existsSync(this.folder);
  }

  path(file: string): string {
    return path.join(this.folder, file);
  }

  text(file: string, encoding: BufferEncoding = 'utf8'): string {
    return readFileSync(this.path(file), encoding);
  }

  json(file: string): unknown {
    return JSON.parse(this.text(file));
  }

  /** The lines of a file as a tail feed delivers them: `\r\n` or `\n` removed, no empty last line. */
  lines(file: string, encoding: BufferEncoding = 'utf8'): string[] {
    const lines = this.text(file, encoding)
      .split('\n')
      .map((line) => line.replace(/\r$/, ''));
    if (lines.at(-1) === '') lines.pop();
    return lines;
  }

  /**
   * Skips the running test, or the suite when called in a `before` hook, when the folder is absent.
   * Mocha's skip takes no reason, so the title carries it.
   */
  skipIfAbsent(context: Mocha.Context): void {
    if (this.present) return;
    const runnable = context.currentTest ?? context.test;
    if (runnable)
      runnable.title += ` (skipped: ${this.what} not found at ${this.folder}; set ${GAME_DATA_VARIABLE} to a folder holding ${this.name}/)`;
    context.skip();
  }
}

/** The recordings of one game: `<root>/<name>`, the root being KEYFRAME_GAME_DATA or the default above. */
export function gameData(name: string, what = `recorded game data "${name}"`): GameData {
  const root = process.env[GAME_DATA_VARIABLE] || defaultRoot();
  return new GameData(name, path.resolve(root, name), what);
}
