// Every tape under test/data replays into this integration and gives the bookmarks in its expected file.
// `<tape>.clog.txt` beside a tape is the game's client log at the time (decoded): it is encoded into a
// temp folder where GamePaths points, as the game would leave it. A tape without one has no log at all.
import 'reflect-metadata';
import { assertTapeMatchesExpected, TestGamePaths } from '@keyframe/test';
import { expect } from 'chai';
import { existsSync, readdirSync } from 'node:fs';
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
  beforeEach(async () => { temp = await mkdtemp(path.join(os.tmpdir(), 'vehicle-combat-tape-')); });
  afterEach(async () => { await rm(temp, { recursive: true, force: true }); });

  for (const tape of readdirSync(DATA).filter((name) => name.endsWith('.tape.jsonl'))) {
    it(`replays ${tape}`, async () => {
      const log = `${DATA}${tape.replace(/\.tape\.jsonl$/, '.clog.txt')}`;
      const gamePaths = new TestGamePaths(temp);
      if (existsSync(log)) await writeClog(path.join(gamePaths.localAppData(), 'WarThunder', '.game_logs'), 'session.clog', await readFile(log, 'utf8'));

      const playback = await assertTapeMatchesExpected(`${DATA}${tape}`, { pluginRoot: PLUGIN_ROOT, gamePaths });
      if (playback.unconsumed > 0) throw new Error(`${playback.unconsumed} tape entries were not consumed`);
      // Health says why nothing can be bookmarked exactly when the player is unknown.
      expect(playback.degradedReasons).to.deep.equal(existsSync(log) ? [] : [NO_NICKNAME_MESSAGE]);
    });
  }
});
