// For plugin authors: replay a tape into an integration package and compare its bookmarks with
// the `*.expected.json` beside the tape.
import {
  inspectPackage,
  loadIntegrationClass,
  playTape,
  type PlayedBookmark,
  type TapeHeader,
  type TapePlayback,
} from '@keyframe/core/tapes';
import type { GamePathsService } from '@keyframe/core';
import { readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface ExpectedBookmarks {
  /** Seconds either side an actual bookmark may be off (default 0.5). */
  tolerance?: number;
  bookmarks: { type: PlayedBookmark['type']; time: number; recording?: number }[];
}

export interface ReplayOptions {
  /** Folder of the integration package (holds package.json with the `keyframe` manifest). */
  pluginRoot: string;
  gamePaths?: GamePathsService;
}

/** Loads the plugin package the way the host does, then plays the tape into it. */
export async function replayTape(tapeFile: string, options: ReplayOptions): Promise<TapePlayback> {
  const plugin = await inspectPackage(options.pluginRoot);
  if (!plugin) throw new Error(`${options.pluginRoot} is not an integration package (no keyframe manifest)`);
  if ('reason' in plugin) throw new Error(`${options.pluginRoot} is refused: ${plugin.reason}`);
  const { key, games } = plugin.manifest.integration;
  return playTape(tapeFile, {
    integrationClass: await loadIntegrationClass(plugin.entry),
    key,
    manifest: plugin.manifest,
    defaultGame: { name: games[0]!.name },
    ...(options.gamePaths ? { gamePaths: options.gamePaths } : {}),
  });
}

export const expectedFileOf = (tapeFile: string) => tapeFile.replace(/\.tape\.jsonl$/, '.expected.json');

/** Differences between what a tape produced and what was expected; empty when they match. */
export function compareBookmarks(actual: readonly PlayedBookmark[], expected: ExpectedBookmarks): string[] {
  const tolerance = expected.tolerance ?? 0.5;
  const problems: string[] = [];
  const describe = (bookmark: { type: string; time: number }) => `${bookmark.type} at ${bookmark.time.toFixed(3)} s`;
  if (actual.length !== expected.bookmarks.length) {
    problems.push(`expected ${expected.bookmarks.length} bookmarks, got ${actual.length}: [${actual.map(describe).join(', ')}]`);
  }
  expected.bookmarks.forEach((want, index) => {
    const got = actual[index];
    if (!got) return;
    if (got.type !== want.type || Math.abs(got.time - want.time) > tolerance || (want.recording ?? 0) !== got.recording) {
      problems.push(`bookmark ${index + 1}: expected ${describe(want)}, got ${describe(got)}`);
    }
  });
  return problems;
}

/** Replays `tapeFile` and throws with every difference from its expected file. */
export async function assertTapeMatchesExpected(tapeFile: string, options: ReplayOptions): Promise<TapePlayback> {
  const playback = await replayTape(tapeFile, options);
  const expected = JSON.parse(await readFile(expectedFileOf(tapeFile), 'utf8')) as ExpectedBookmarks;
  const problems = compareBookmarks(playback.bookmarks, expected);
  if (problems.length > 0) throw new Error(`${tapeFile}:\n  ${problems.join('\n  ')}`);
  return playback;
}

export interface EveryTapeOptions {
  /** Game folders for one tape (files it reads besides its feeds); default: the player's own. */
  gamePaths?: (tape: string) => Promise<GamePathsService>;
  /** The package's own assertions on a tape's playback (health, log). */
  check?: (tape: string, playback: TapePlayback) => void | Promise<void>;
}

/**
 * One test per tape in `<pluginRoot>/test/data`: it replays into the package loaded as the host loads
 * it, gives the bookmarks of its expected file, and every entry is consumed.
 */
export function itReplaysEveryTape(pluginRoot: string, options: EveryTapeOptions = {}): void {
  const data = path.join(pluginRoot, 'test', 'data');
  for (const tape of readdirSync(data).filter((name) => name.endsWith('.tape.jsonl'))) {
    it(`replays ${tape}`, async () => {
      const gamePaths = await options.gamePaths?.(tape);
      const playback = await assertTapeMatchesExpected(path.join(data, tape), { pluginRoot, ...(gamePaths ? { gamePaths } : {}) });
      if (playback.unconsumed > 0) throw new Error(`${playback.unconsumed} tape entries of ${tape} were not consumed`);
      await options.check?.(tape, playback);
    });
  }
}

/** Writes a tape built in a test: the header, then one JSON line per entry (the tape format's plain spelling). */
export async function writeTape(file: string, header: Omit<TapeHeader, 'tape'>, entries: readonly object[]): Promise<void> {
  await writeFile(file, [{ tape: 1, ...header }, ...entries].map((entry) => JSON.stringify(entry)).join('\n'));
}
