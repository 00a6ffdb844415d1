// Every tape under test/data replays into this integration and gives the bookmarks in its expected
// file; the recorded client log lines, replayed line by line at their own times, give their deaths.
import 'reflect-metadata';
import { assertTapeMatchesExpected, createTempFolder, replayTape } from '@keyframe/test';
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRecordedLines, skipWithoutRecordedLog } from './recorded-log.js';

const PLUGIN_ROOT = fileURLToPath(new URL('../', import.meta.url));
const DATA = fileURLToPath(new URL('../test/data/', import.meta.url));
const EXE = 'C:\\Program Files (x86)\\Steam\\steamapps\\common\\Rust\\RustClient.exe';
const LOG = 'C:\\Program Files (x86)\\Steam\\steamapps\\common\\Rust\\output_log.txt';

describe('survival-game tapes', () => {
  for (const tape of readdirSync(DATA).filter((name) => name.endsWith('.tape.jsonl'))) {
    it(`replays ${tape}`, async () => {
      const playback = await assertTapeMatchesExpected(`${DATA}${tape}`, { pluginRoot: PLUGIN_ROOT });
      if (playback.unconsumed > 0) throw new Error(`${playback.unconsumed} tape entries were not consumed`);
    });
  }

  it('replays the recorded client log lines at their logged times: a Death for each "You died"', async function () {
    skipWithoutRecordedLog(this);
    const lines = await readRecordedLines();
    const timeOf = (line: string) => Date.parse(line.slice(0, line.indexOf('|')));
    const start = timeOf(lines[0]!);
    const temp = await createTempFolder();
    try {
      const tape = path.join(temp.path, 'recorded.tape.jsonl');
      const header = { tape: 1, integration: 'survivalGame', recordedAt: new Date(start).toISOString(), game: { name: 'Rust', executablePath: EXE } };
      const entries = lines.map((line) => ({ t: timeOf(line) - start, feed: 'log', kind: 'tail', line, file: LOG }));
      await writeFile(tape, [header, ...entries].map((entry) => JSON.stringify(entry)).join('\n'));
      const playback = await replayTape(tape, { pluginRoot: PLUGIN_ROOT });
      // 05:34:35.817 (Suicide) and 05:38:55.622 (killed by a player), from the first line at 05:28:13.845.
      expect(playback.bookmarks.map(({ type, time }) => [type, Number(time.toFixed(3))])).to.deep.equal([['Death', 381.972], ['Death', 641.777]]);
      expect(playback.unconsumed).to.equal(0);
    } finally {
      await temp.remove();
    }
  });
});
