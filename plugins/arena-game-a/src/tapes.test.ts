// Every tape under test/data replays into this integration and gives the bookmarks in its expected
// file; health stays quiet except where the tape shows a reason to speak.
import 'reflect-metadata';
import { itReplaysEveryTape } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { SPECTATING_MESSAGE } from './feed-health.js';

/** What the health entry says during each tape; loading, errors and a few bad answers are not worth a word. */
const HEALTH_REASONS: Record<string, string[]> = { 'spectating.tape.jsonl': [SPECTATING_MESSAGE] };

describe('arena-game-a tapes', () => {
  itReplaysEveryTape(fileURLToPath(new URL('../', import.meta.url)), {
    check: (tape, playback) => {
      expect([...new Set(playback.degradedReasons)]).to.deep.equal(HEALTH_REASONS[tape] ?? []);
      expect(playback.log.filter((line) => line.startsWith('warn ') || line.startsWith('error '))).to.deep.equal([]);
    },
  });
});
