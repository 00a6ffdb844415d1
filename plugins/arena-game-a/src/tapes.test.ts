// Every tape under test/data replays into this integration and gives the bookmarks in its expected
// file; health stays quiet except where the tape shows a reason to speak.
import 'reflect-metadata';
import { assertTapeMatchesExpected } from '@keyframe/test';
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SPECTATING_MESSAGE } from './feed-health.js';

const PLUGIN_ROOT = fileURLToPath(new URL('../', import.meta.url));
const DATA = fileURLToPath(new URL('../test/data/', import.meta.url));

/** What the health entry says during each tape; loading, errors and a few bad answers are not worth a word. */
const HEALTH_REASONS: Record<string, string[]> = { 'spectating.tape.jsonl': [SPECTATING_MESSAGE] };

describe('arena-game-a tapes', () => {
  for (const tape of readdirSync(DATA).filter((name) => name.endsWith('.tape.jsonl'))) {
    it(`replays ${tape}`, async () => {
      const playback = await assertTapeMatchesExpected(`${DATA}${tape}`, { pluginRoot: PLUGIN_ROOT });
      if (playback.unconsumed > 0) throw new Error(`${playback.unconsumed} tape entries were not consumed`);
      expect([...new Set(playback.degradedReasons)]).to.deep.equal(HEALTH_REASONS[tape] ?? []);
      expect(playback.log.filter((line) => line.startsWith('warn ') || line.startsWith('error '))).to.deep.equal([]);
    });
  }
});
