// The real German ground battle (../shared/game-data/vehicle-combat) replayed as the game would serve it
// to a 500 ms poll: a tape is derived from it at run time (each message appears half a second into its
// battle second), never stored. The local player is the capture's author, CassualTux.
import 'reflect-metadata';
import { assertTapeMatchesExpected, TestGamePaths } from '@keyframe/integration-testkit';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loggedInSession, writeClog } from './clog-fixtures.js';
import { GERMAN_MATCH, GERMAN_PLAYER, readRecordedDamage, type RecordedDamage, recordedData } from './recorded-hudmsg.js';

const PLUGIN_ROOT = fileURLToPath(new URL('../', import.meta.url));
const POLL_MS = 500;

/** Polls from battle second `fromSecond` to the end; each answers what appeared since the previous answer. */
function derivedTape(damage: readonly RecordedDamage[], fromSecond: number): string {
  const header = {
    tape: 1,
    integration: 'vehicleCombat',
    recordedAt: '2026-01-01T12:00:00.000Z',
    game: { name: 'War Thunder' },
    description: `derived at test time from ${GERMAN_MATCH}, polled from battle second ${fromSecond}`,
  };
  const lines = [JSON.stringify(header)];
  const lastSecond = Math.max(...damage.map(({ time }) => time)) + 2;
  let answered = -1;
  for (let t = 10; fromSecond + t / 1000 <= lastSecond; t += POLL_MS) {
    const battleSeconds = fromSecond + t / 1000;
    const appeared = damage.filter(({ id, time }) => id > answered && time + 0.5 <= battleSeconds);
    answered = Math.max(answered, ...appeared.map(({ id }) => id));
    // The first poll asks from id 0 and gets everything so far; later ones only what is newer.
    lines.push(JSON.stringify({ t, feed: 'hudmsg', kind: 'poll', status: 200, body: JSON.stringify({ events: [], damage: appeared }) }));
  }
  return `${lines.join('\n')}\n`;
}

describe('the real German ground battle, polled', function () {
  let temp: string;
  let gamePaths: TestGamePaths;
  beforeEach(async function () {
    recordedData.skipIfAbsent(this);
    temp = await mkdtemp(path.join(os.tmpdir(), 'vehicle-combat-real-'));
    gamePaths = new TestGamePaths(temp);
    await writeClog(path.join(gamePaths.localAppData(), 'WarThunder', '.game_logs'), 'session.clog', loggedInSession(GERMAN_PLAYER));
  });
  afterEach(async () => {
    if (temp) await rm(temp, { recursive: true, force: true });
  });

  async function replay(fromSecond: number, expected: Array<{ type: string; battleSecond: number }>): Promise<void> {
    const tape = path.join(temp, `from-${fromSecond}.tape.jsonl`);
    await writeFile(tape, derivedTape(readRecordedDamage(GERMAN_MATCH), fromSecond));
    const bookmarks = expected.map(({ type, battleSecond }) => ({ type, time: battleSecond + 0.5 - fromSecond }));
    await writeFile(tape.replace(/\.tape\.jsonl$/, '.expected.json'), JSON.stringify({ tolerance: 0.5, bookmarks }));
    await assertTapeMatchesExpected(tape, { pluginRoot: PLUGIN_ROOT, gamePaths });
  }

  it("bookmarks CassualTux's two kills and two deaths at their battle times, nothing of the 143 other messages", async () => {
    await replay(200, [
      { type: 'Kill', battleSecond: 274 },
      { type: 'Death', battleSecond: 282 },
      { type: 'Death', battleSecond: 410 },
      { type: 'Kill', battleSecond: 493 },
    ]);
  });

  it('joining at battle second 300 bookmarks only what follows', async () => {
    await replay(300, [
      { type: 'Death', battleSecond: 410 },
      { type: 'Kill', battleSecond: 493 },
    ]);
  });
});
