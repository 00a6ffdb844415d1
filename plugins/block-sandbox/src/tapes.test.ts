// Every tape under test/data replays into this integration and gives the bookmarks in its expected
// file; the recorded logs of ../shared are replayed line by line as tapes built at run time.
import 'reflect-metadata';
import {
  compareBookmarks,
  createTempFolder,
  itReplaysEveryTape,
  replayTape,
  writeTape,
  type TempFolder,
} from '@keyframe/integration-testkit';
import { expect } from 'chai';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readLogLine } from './log-line.js';
import { readRecordedLines, RECORDED_LOGS, recordedData } from './recorded-logs.js';

const PLUGIN_ROOT = fileURLToPath(new URL('../', import.meta.url));
const DATA = fileURLToPath(new URL('../test/data/', import.meta.url));
const LINE_INTERVAL_MS = 1000;

describe('block-sandbox tapes', () => {
  itReplaysEveryTape(PLUGIN_ROOT);

  it('says in health why nothing arrives when the log never names the player', async () => {
    const playback = await replayTape(`${DATA}player-unknown.tape.jsonl`, { pluginRoot: PLUGIN_ROOT });
    expect(playback.degradedReasons).to.have.length(1);
    expect(playback.degradedReasons[0]).to.match(/does not name the player .*Setting user:/);
  });

  describe('recorded logs, line by line from after the Setting user: line (the tail starts at the end of the file)', () => {
    let temp: TempFolder;
    before(async function () {
      recordedData.skipIfAbsent(this);
      temp = await createTempFolder();
    });
    after(async () => {
      await temp?.remove();
    });

    for (const recorded of RECORDED_LOGS) {
      it(`${recorded.file}: ${recorded.deathLines.length} deaths of ${recorded.player}`, async () => {
        const lines = readRecordedLines(recorded.file);
        const firstDelivered = lines.findIndex((line) => readLogLine(line).kind === 'user') + 1;
        expect(firstDelivered, 'the Setting user: line').to.be.greaterThan(0);
        // The feed opened the real file: the integration finds the player by scanning its beginning.
        const file = recordedData.path(recorded.file);
        const entries = [
          { t: 0, feed: 'log', kind: 'tail', reset: 'opened', file },
          ...lines
            .slice(firstDelivered)
            .map((line, index) => ({ t: (firstDelivered + index + 1) * LINE_INTERVAL_MS, feed: 'log', kind: 'tail', line, file })),
        ];
        const tape = path.join(temp.path, `${recorded.file}.tape.jsonl`);
        await writeTape(
          tape,
          { integration: 'blockSandbox', recordedAt: '2026-01-01T12:00:00.000Z', game: { name: 'Minecraft' } },
          entries,
        );

        const playback = await replayTape(tape, { pluginRoot: PLUGIN_ROOT });
        const expected = recorded.deathLines.map((line) => ({ type: 'Death' as const, time: (line * LINE_INTERVAL_MS) / 1000 }));
        expect(compareBookmarks(playback.bookmarks, { tolerance: 0.001, bookmarks: expected })).to.deep.equal([]);
        expect(playback.unconsumed).to.equal(0);
        expect(playback.degradedReasons).to.deep.equal([]);
      });
    }
  });
});
