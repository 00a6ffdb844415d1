// Every tape under test/data replays into this integration and gives the bookmarks in its expected file.
// `<tape>.clog.txt` beside a tape is the game's client log at the time (decoded): it is encoded into a
// temp folder where GamePaths points, as the game would leave it. A tape without one has no log at all.
import 'reflect-metadata';
import { itReplaysEveryTape, TestGamePaths } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeClog } from './clog-fixtures.js';
import { NO_NICKNAME_MESSAGE } from './vehicle-combat-integration.js';

const PLUGIN_ROOT = fileURLToPath(new URL('../', import.meta.url));
const DATA = fileURLToPath(new URL('../test/data/', import.meta.url));

describe('vehicle-combat tapes', () => {
  let temp: string;
  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'vehicle-combat-tape-'));
  });
  afterEach(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  const logOf = (tape: string) => `${DATA}${tape.replace(/\.tape\.jsonl$/, '.clog.txt')}`;
  itReplaysEveryTape(PLUGIN_ROOT, {
    gamePaths: async (tape) => {
      const gamePaths = new TestGamePaths(temp);
      const log = logOf(tape);
      if (existsSync(log))
        await writeClog(path.join(gamePaths.localAppData(), 'WarThunder', '.game_logs'), 'session.clog', await readFile(log, 'utf8'));
      return gamePaths;
    },
    // Health says why nothing can be bookmarked exactly when the player is unknown.
    check: (tape, playback) => {
      expect(playback.degradedReasons).to.deep.equal(existsSync(logOf(tape)) ? [] : [NO_NICKNAME_MESSAGE]);
    },
  });
});
