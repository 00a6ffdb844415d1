// Every tape under test/data replays into this integration and gives the bookmarks in its expected file.
import 'reflect-metadata';
import { assertTapeMatchesExpected } from '@keyframe/test';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PLUGIN_ROOT = fileURLToPath(new URL('../', import.meta.url));
const DATA = fileURLToPath(new URL('../test/data/', import.meta.url));

describe('battle-royale tapes', () => {
  for (const tape of readdirSync(DATA).filter((name) => name.endsWith('.tape.jsonl'))) {
    it(`replays ${tape}`, async () => {
      const playback = await assertTapeMatchesExpected(`${DATA}${tape}`, { pluginRoot: PLUGIN_ROOT });
      if (playback.unconsumed > 0) throw new Error(`${playback.unconsumed} tape entries were not consumed`);
    });
  }
});
