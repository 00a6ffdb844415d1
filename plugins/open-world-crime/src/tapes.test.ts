// Every tape under test/data replays into this integration (real OCR on its frames) and gives the
// bookmarks in its expected file; the 4:3 one also says in health why nothing is read.
import 'reflect-metadata';
import { itReplaysEveryTape } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';

const UNSUPPORTED_ASPECT_RATIO =
  'On-screen text is not read: the picture is 720x540 (4:3), and the text region of screenText feed ' +
  '"deaths" is only known for 16:9, 21:9. Play at one of those aspect ratios.';

describe('open-world-crime tapes', function () {
  this.timeout(60_000);
  itReplaysEveryTape(fileURLToPath(new URL('../', import.meta.url)), {
    check: (tape, playback) => {
      expect(playback.degradedReasons).to.deep.equal(tape === 'square-screen.tape.jsonl' ? [UNSUPPORTED_ASPECT_RATIO] : []);
    },
  });
});
