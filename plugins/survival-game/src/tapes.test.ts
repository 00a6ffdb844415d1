// Every tape under test/data replays into this integration and gives the bookmarks in its expected
// file; the recorded client log lines, replayed line by line at their own times, give their deaths.
import 'reflect-metadata';
import { createTempFolder, itReplaysEveryTape, replayTape, writeTape } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRecordedLines, recordedData } from './recorded-log.js';

const PLUGIN_ROOT = fileURLToPath(new URL('../', import.meta.url));
const EXE = 'C:\\Program Files (x86)\\Steam\\steamapps\\common\\Rust\\RustClient.exe';
const LOG = 'C:\\Program Files (x86)\\Steam\\steamapps\\common\\Rust\\output_log.txt';

describe('survival-game tapes', () => {
  itReplaysEveryTape(PLUGIN_ROOT);

  it('replays the recorded client log lines at their logged times: a Death for each "You died"', async function () {
    recordedData.skipIfAbsent(this);
    const lines = readRecordedLines();
    const timeOf = (line: string) => Date.parse(line.slice(0, line.indexOf('|')));
    const start = timeOf(lines[0]!);
    const temp = await createTempFolder();
    try {
      const tape = path.join(temp.path, 'recorded.tape.jsonl');
      const entries = lines.map((line) => ({ t: timeOf(line) - start, feed: 'log', kind: 'tail', line, file: LOG }));
      await writeTape(
        tape,
        { integration: 'survivalGame', recordedAt: new Date(start).toISOString(), game: { name: 'Rust', executablePath: EXE } },
        entries,
      );
      const playback = await replayTape(tape, { pluginRoot: PLUGIN_ROOT });
      // 05:34:35.817 (Suicide) and 05:38:55.622 (killed by a player), from the first line at 05:28:13.845.
      expect(playback.bookmarks.map(({ type, time }) => [type, Number(time.toFixed(3))])).to.deep.equal([
        ['Death', 381.972],
        ['Death', 641.777],
      ]);
      expect(playback.unconsumed).to.equal(0);
    } finally {
      await temp.remove();
    }
  });
});
