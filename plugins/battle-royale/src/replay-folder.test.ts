import { expect } from 'chai';
import { appendFile, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readWhenComplete, replayFilesIn, replayFolderNames } from './replay-folder.js';
import { kill, knock, writeReplayFolder } from './test-support/replay-generator.js';

describe('replay folder reads', () => {
  let demos: string;
  beforeEach(async () => {
    demos = await mkdtemp(path.join(os.tmpdir(), 'battle-royale-demos-'));
  });
  afterEach(() => rm(demos, { recursive: true, force: true }));

  it('lists replay folders, none while the Demos folder does not exist', async () => {
    expect(await replayFolderNames(path.join(demos, 'missing'))).to.deep.equal(new Set());
    await writeReplayFolder(demos, { folder: 'match.one', matchStartedAt: new Date(), player: 'Hunter', events: [] });
    await writeFile(path.join(demos, 'stray.txt'), 'x');
    expect(await replayFolderNames(demos)).to.deep.equal(new Set(['match.one']));
  });

  it('lists the info and event files of a replay, not its demo data', async () => {
    await writeReplayFolder(demos, {
      folder: 'match.one',
      matchStartedAt: new Date(),
      player: 'Hunter',
      events: [knock(1, 'Hunter', 'B'), kill(2, 'Hunter', 'B', true)],
    });
    expect((await replayFilesIn(demos, 'match.one')).sort()).to.deep.equal([
      'match.one/PUBG.replayinfo',
      'match.one/events/DBNO0',
      'match.one/events/kill0',
    ]);
  });

  it('reads a file that has not changed for a while at once', async () => {
    const file = path.join(demos, 'done');
    await writeFile(file, 'complete');
    const old = new Date(Date.now() - 10_000);
    await utimes(file, old, old);
    const started = Date.now();
    expect((await readWhenComplete(file, { stableMs: 1000, timeoutMs: 5000, signal: new AbortController().signal }))?.toString()).to.equal(
      'complete',
    );
    expect(Date.now() - started).to.be.below(500);
  });

  it('waits for a file still being written', async () => {
    const file = path.join(demos, 'growing');
    await writeFile(file, '{"Timestamp":');
    const writer = (async () => {
      for (const part of ['17324', '74860', '000}']) {
        await new Promise((resolve) => setTimeout(resolve, 60));
        await appendFile(file, part);
      }
    })();
    const bytes = await readWhenComplete(file, { stableMs: 300, timeoutMs: 5000, signal: new AbortController().signal });
    await writer;
    expect(bytes?.toString()).to.equal('{"Timestamp":1732474860000}');
  });

  it('gives up on a file that vanished, and when aborted', async () => {
    const signal = new AbortController().signal;
    expect(await readWhenComplete(path.join(demos, 'gone'), { stableMs: 100, timeoutMs: 1000, signal })).to.equal(undefined);
    const file = path.join(demos, 'fresh');
    await mkdir(demos, { recursive: true });
    await writeFile(file, 'x');
    const controller = new AbortController();
    const pending = readWhenComplete(file, { stableMs: 5000, timeoutMs: 10_000, signal: controller.signal });
    controller.abort();
    expect(await pending).to.equal(undefined);
  });
});
