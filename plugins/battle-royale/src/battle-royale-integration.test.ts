import 'reflect-metadata';
import type { BookmarkRequest } from '@keyframe/core';
import { IntegrationTestBed } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { injectable } from 'tsyringe';
import { BattleRoyaleIntegration } from './battle-royale-integration.js';
import { demosFolderOf, REPLAY_FILE_PATTERN, replayFilePath } from './replay-layout.js';
import { knock, watchedReplayFiles, writeGeneratedFile, writeReplayFolder, type GeneratedReplay } from './test-support/replay-generator.js';

const GAME = {
  name: 'PUBG: Battlegrounds',
  executablePath: 'C:/Program Files (x86)/Steam/steamapps/common/PUBG/TslGame/Binaries/Win64/TslGame.exe',
};
const MATCH_START = new Date('2026-11-24T19:01:00.000Z');

/** The same integration with limits short enough for a test. */
@injectable()
class QuickBattleRoyaleIntegration extends BattleRoyaleIntegration {
  protected override readonly noReplayTimeoutMs = 50;
  protected override readonly stableMs = 200;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function replay(folder: string, minutesAfterStart: number, events: GeneratedReplay['events']): GeneratedReplay {
  return { folder, matchStartedAt: new Date(MATCH_START.getTime() + minutesAfterStart * 60_000), player: '[KFR]Hunter', events };
}
const myKnock = (offsetMs: number) => knock(offsetMs, 'Hunter', 'Enemy');
const knockedMe = (offsetMs: number) => knock(offsetMs, 'Enemy', 'Hunter');
const summary = (requests: BookmarkRequest[]) => requests.map((request) => `${request.type} ${request.at?.toISOString()}`);

describe('BattleRoyaleIntegration', () => {
  let root: string;
  let demos: string;
  let bed: IntegrationTestBed;
  let integration: BattleRoyaleIntegration;

  /** Delivers the replay's watched files the way the live feed does: each once it is complete. */
  async function deliver(saved: GeneratedReplay): Promise<void> {
    const feed = bed.feeds.latest('watchFolder', 'replays');
    for (const file of watchedReplayFiles(saved)) {
      await feed.deliver({ path: file.path, absolutePath: replayFilePath(demos, file.path), size: file.bytes.length });
    }
  }

  /** Waits (polling; the catch-up of missed replays runs on its own) until `count` bookmarks were asked for. */
  async function bookmarksReach(count: number, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (bed.bookmarks.added.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${bed.bookmarks.added.length} of ${count} bookmarks arrived`);
      await delay(20);
    }
  }

  /** Saves a replay (one knock by the player) whose info file the game is still writing; resolves with what finishes it. */
  async function saveUnfinishedReplay(folder: string): Promise<() => Promise<void>> {
    const [event, info] = watchedReplayFiles(replay(folder, 0, [myKnock(1000)]));
    await writeGeneratedFile(demos, event!);
    await writeGeneratedFile(demos, { ...info!, bytes: info!.bytes.subarray(0, 30) });
    return () => appendFile(replayFilePath(demos, info!.path), info!.bytes.subarray(30));
  }

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'battle-royale-'));
    bed = new IntegrationTestBed({ key: 'battleRoyale', root });
    demos = demosFolderOf(bed.gamePaths.localAppData());
    integration = bed.resolve(QuickBattleRoyaleIntegration);
  });
  afterEach(async () => {
    await integration.deactivate();
    await rm(root, { recursive: true, force: true });
  });

  it('watches the replay files in TslGame/Saved/Demos under the local app-data folder every 2.5 s', async () => {
    await integration.enable();
    await integration.activate(GAME);
    expect(bed.feeds.opened.map((feed) => `${feed.kind}:${feed.id}`)).to.deep.equal(['watchFolder:replays']);
    expect(bed.feeds.latest('watchFolder', 'replays').options).to.deep.equal({
      folder: demos,
      pattern: REPLAY_FILE_PATTERN,
      intervalMs: 2500,
    });
  });

  it('bookmarks the knocks of a replay the feed reports at match start + offset', async () => {
    await integration.enable();
    await integration.activate(GAME);
    const saved = replay('match.live', 0, [myKnock(61_500), knockedMe(300_000)]);
    await writeReplayFolder(demos, saved);
    await deliver(saved);
    expect(summary(bed.bookmarks.added)).to.deep.equal(['Kill 2026-11-24T19:02:01.500Z', 'Death 2026-11-24T19:06:00.000Z']);
  });

  it('reads, when next activated, a replay saved while no recording ran, and not the replays that were there before', async () => {
    await writeReplayFolder(demos, replay('match.before', -60, [myKnock(1000)]));
    await integration.enable();
    await integration.activate(GAME);
    const live = replay('match.live', 0, [myKnock(1000)]);
    await writeReplayFolder(demos, live);
    await deliver(live);
    await integration.deactivate();

    await writeReplayFolder(demos, replay('match.between', 30, [knockedMe(2000)]));
    await integration.activate(GAME);
    await bookmarksReach(2);
    await delay(100);
    expect(summary(bed.bookmarks.added)).to.deep.equal(['Kill 2026-11-24T19:01:01.000Z', 'Death 2026-11-24T19:31:02.000Z']);
  });

  it('waits for a missed replay whose files are still being written', async () => {
    await integration.enable();
    const finishSaving = await saveUnfinishedReplay('match.growing');

    await integration.activate(GAME);
    await delay(100);
    await finishSaving();
    await bookmarksReach(1);
    expect(summary(bed.bookmarks.added)).to.deep.equal(['Kill 2026-11-24T19:01:01.000Z']);
    expect(bed.logger.problems).to.deep.equal([]);
  });

  it('reads a missed replay at the next activation when deactivated while waiting for it', async () => {
    await integration.enable();
    const finishSaving = await saveUnfinishedReplay('match.cut');

    await integration.activate(GAME);
    await delay(50);
    await integration.deactivate();
    await finishSaving();
    await delay(300);
    expect(bed.bookmarks.added).to.deep.equal([]);
    await integration.activate(GAME);
    await bookmarksReach(1);
    expect(summary(bed.bookmarks.added)).to.deep.equal(['Kill 2026-11-24T19:01:01.000Z']);
    expect(bed.logger.problems).to.deep.equal([]);
  });

  it('skips a corrupt replay with the reason in the log, and goes on with the next', async () => {
    await integration.enable();
    await integration.activate(GAME);
    const broken = replay('match.broken', 0, [myKnock(1000)]);
    const brokenInfo = 'match.broken/PUBG.replayinfo';
    await writeReplayFolder(demos, broken);
    await writeFile(replayFilePath(demos, brokenInfo), Buffer.from([0x7f, 0xe2, 0xa2, 0x1c, 0x7b, 0x22, 0x54]));
    await deliver(broken);
    await bed.feeds
      .latest('watchFolder', 'replays')
      .deliver({ path: brokenInfo, absolutePath: replayFilePath(demos, brokenInfo), size: 7 });
    const good = replay('match.good', 10, [myKnock(1000)]);
    await writeReplayFolder(demos, good);
    await deliver(good);

    expect(summary(bed.bookmarks.added)).to.deep.equal(['Kill 2026-11-24T19:11:01.000Z']);
    expect(bed.logger.problems).to.deep.equal([
      {
        level: 'warn',
        message: 'Skipped the replay match.broken: match.broken/PUBG.replayinfo is unreadable (it holds no complete JSON object)',
      },
    ]);
  });

  it('says in health when no replay appears during a recording, and clears it when one does', async () => {
    await integration.enable();
    await integration.activate(GAME);
    await delay(120);
    expect(bed.health.degradations).to.have.length(1);
    expect(bed.health.degradations[0]).to.match(/^No PUBG replay has appeared in 45 minutes of play: .*replay recording is on/);
    const saved = replay('match.late', 0, [myKnock(1000)]);
    await writeReplayFolder(demos, saved);
    await deliver(saved);
    expect(bed.health.current).to.equal(undefined);
  });

  it('stops its health timer when deactivated', async () => {
    await integration.enable();
    await integration.activate(GAME);
    await integration.deactivate();
    await delay(120);
    expect(bed.health.degradations).to.deep.equal([]);
  });
});
