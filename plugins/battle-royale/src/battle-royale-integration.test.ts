import 'reflect-metadata';
import {
  type BookmarkRequest, type BookmarksService, type Feed, type FeedsService, type FolderInput, type GamePathsService, type HealthReporter,
  type PluginLogger, type WatchFolderOptions,
} from '@keyframe/core';
import { expect } from 'chai';
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BattleRoyaleIntegration } from './battle-royale-integration.js';
import { REPLAY_FILE_PATTERN } from './replay-layout.js';
import { replayFiles, writeReplayFolder, type GeneratedReplay } from './test-support/replay-generator.js';

const GAME = { name: 'PUBG: Battlegrounds', executablePath: 'C:/Program Files (x86)/Steam/steamapps/common/PUBG/TslGame/Binaries/Win64/TslGame.exe' };
const MATCH_START = new Date('2026-11-24T19:01:00.000Z');

class FakeFeed implements Feed<FolderInput> {
  handler: ((input: FolderInput) => void | Promise<void>) | undefined;
  readonly ready = Promise.resolve();
  onInput(handler: (input: FolderInput) => void | Promise<void>): void { this.handler = handler; }
  async close(): Promise<void> {}
}

class FakeFeeds implements FeedsService {
  readonly opened: Array<{ id: string; options: WatchFolderOptions; feed: FakeFeed }> = [];
  watchFolder(id: string, options: WatchFolderOptions): Feed<FolderInput> {
    const feed = new FakeFeed();
    this.opened.push({ id, options, feed });
    return feed;
  }
  httpPush(): never { throw new Error('not used'); }
  poll(): never { throw new Error('not used'); }
  tail(): never { throw new Error('not used'); }
  /** Delivers the replay's watched files the way the live feed does: each once it is complete. */
  async deliver(demos: string, replay: GeneratedReplay): Promise<void> {
    const { feed } = this.opened.at(-1)!;
    for (const file of replayFiles(replay).filter((generated) => REPLAY_FILE_PATTERN.test(generated.path))) {
      await feed.handler!({ path: file.path, absolutePath: path.join(demos, ...file.path.split('/')), size: file.bytes.length });
    }
  }
}

class FakeBookmarks implements BookmarksService {
  readonly added: BookmarkRequest[] = [];
  async add(request: BookmarkRequest): Promise<boolean> {
    this.added.push(request);
    return true;
  }
  waitFor(count: number, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.added.length >= count) resolve();
        else if (Date.now() > deadline) reject(new Error(`only ${this.added.length} of ${count} bookmarks arrived`));
        else setTimeout(check, 20);
      };
      check();
    });
  }
}

class FakeHealth implements HealthReporter {
  readonly degradations: Array<string | undefined> = [];
  degraded(reason: string | undefined): void { this.degradations.push(reason); }
  notify(): void {}
}

class FakeLogger implements PluginLogger {
  readonly lines: Array<[string, string]> = [];
  debug(message: string): void { this.lines.push(['debug', message]); }
  info(message: string): void { this.lines.push(['info', message]); }
  warn(message: string): void { this.lines.push(['warn', message]); }
  error(message: string): void { this.lines.push(['error', message]); }
}

/** The same integration with limits short enough for a test. */
class QuickBattleRoyaleIntegration extends BattleRoyaleIntegration {
  protected override readonly noReplayTimeoutMs = 50;
  protected override readonly stableMs = 200;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function replay(folder: string, minutesAfterStart: number, events: GeneratedReplay['events']): GeneratedReplay {
  return { folder, matchStartedAt: new Date(MATCH_START.getTime() + minutesAfterStart * 60_000), player: '[KFR]Hunter', events };
}
const myKnock = (offsetMs: number) => ({ kind: 'knock' as const, offsetMs, instigator: 'Hunter', victim: 'Enemy' });
const knockedMe = (offsetMs: number) => ({ kind: 'knock' as const, offsetMs, instigator: 'Enemy', victim: 'Hunter' });
const summary = (requests: BookmarkRequest[]) => requests.map((request) => `${request.type} ${request.at?.toISOString()}`);

describe('BattleRoyaleIntegration', () => {
  let local: string;
  let demos: string;
  let feeds: FakeFeeds;
  let bookmarks: FakeBookmarks;
  let health: FakeHealth;
  let logger: FakeLogger;
  let integration: BattleRoyaleIntegration;

  beforeEach(async () => {
    local = await mkdtemp(path.join(os.tmpdir(), 'battle-royale-local-'));
    demos = path.join(local, 'TslGame', 'Saved', 'Demos');
    feeds = new FakeFeeds();
    bookmarks = new FakeBookmarks();
    health = new FakeHealth();
    logger = new FakeLogger();
    const gamePaths: GamePathsService = { steamLibraries: async () => [], roamingAppData: () => local, localAppData: () => local, home: () => local };
    integration = new QuickBattleRoyaleIntegration(feeds, bookmarks, logger, health, gamePaths);
  });
  afterEach(async () => {
    await integration.deactivate();
    await rm(local, { recursive: true, force: true });
  });

  it('watches the replay files in TslGame/Saved/Demos under the local app-data folder every 2.5 s', async () => {
    await integration.enable();
    await integration.activate(GAME);
    expect(feeds.opened.map(({ id, options }) => ({ id, folder: options.folder, intervalMs: options.intervalMs }))).to.deep.equal([
      { id: 'replays', folder: demos, intervalMs: 2500 },
    ]);
    expect(feeds.opened[0]!.options.pattern).to.equal(REPLAY_FILE_PATTERN);
  });

  it('bookmarks the knocks of a replay the feed reports at match start + offset', async () => {
    await integration.enable();
    await integration.activate(GAME);
    const saved = replay('match.live', 0, [myKnock(61_500), knockedMe(300_000)]);
    await writeReplayFolder(demos, saved);
    await feeds.deliver(demos, saved);
    expect(summary(bookmarks.added)).to.deep.equal(['Kill 2026-11-24T19:02:01.500Z', 'Death 2026-11-24T19:06:00.000Z']);
  });

  it('reads, when next activated, a replay saved while no recording ran, and not the replays that were there before', async () => {
    await writeReplayFolder(demos, replay('match.before', -60, [myKnock(1000)]));
    await integration.enable();
    await integration.activate(GAME);
    const live = replay('match.live', 0, [myKnock(1000)]);
    await writeReplayFolder(demos, live);
    await feeds.deliver(demos, live);
    await integration.deactivate();

    await writeReplayFolder(demos, replay('match.between', 30, [knockedMe(2000)]));
    await integration.activate(GAME);
    await bookmarks.waitFor(2);
    await delay(100);
    expect(summary(bookmarks.added)).to.deep.equal(['Kill 2026-11-24T19:01:01.000Z', 'Death 2026-11-24T19:31:02.000Z']);
  });

  it('waits for a missed replay whose files are still being written', async () => {
    await integration.enable();
    const [event, info] = replayFiles(replay('match.growing', 0, [myKnock(1000)])).filter((file) => REPLAY_FILE_PATTERN.test(file.path));
    const infoPath = path.join(demos, ...info!.path.split('/'));
    await mkdir(path.dirname(path.join(demos, ...event!.path.split('/'))), { recursive: true });
    await writeFile(path.join(demos, ...event!.path.split('/')), event!.bytes);
    await writeFile(infoPath, info!.bytes.subarray(0, 30));

    await integration.activate(GAME);
    await delay(100);
    await appendFile(infoPath, info!.bytes.subarray(30));
    await bookmarks.waitFor(1);
    expect(summary(bookmarks.added)).to.deep.equal(['Kill 2026-11-24T19:01:01.000Z']);
    expect(logger.lines.filter(([level]) => level === 'warn')).to.deep.equal([]);
  });

  it('reads a missed replay at the next activation when deactivated while waiting for it', async () => {
    await integration.enable();
    const [event, info] = replayFiles(replay('match.cut', 0, [myKnock(1000)])).filter((file) => REPLAY_FILE_PATTERN.test(file.path));
    const infoPath = path.join(demos, ...info!.path.split('/'));
    await mkdir(path.dirname(path.join(demos, ...event!.path.split('/'))), { recursive: true });
    await writeFile(path.join(demos, ...event!.path.split('/')), event!.bytes);
    await writeFile(infoPath, info!.bytes.subarray(0, 30));

    await integration.activate(GAME);
    await delay(50);
    await integration.deactivate();
    await appendFile(infoPath, info!.bytes.subarray(30));
    await delay(300);
    expect(bookmarks.added).to.deep.equal([]);
    await integration.activate(GAME);
    await bookmarks.waitFor(1);
    expect(summary(bookmarks.added)).to.deep.equal(['Kill 2026-11-24T19:01:01.000Z']);
    expect(logger.lines.filter(([level]) => level === 'warn')).to.deep.equal([]);
  });

  it('skips a corrupt replay with the reason in the log, and goes on with the next', async () => {
    await integration.enable();
    await integration.activate(GAME);
    const broken = replay('match.broken', 0, [myKnock(1000)]);
    await writeReplayFolder(demos, broken);
    await writeFile(path.join(demos, 'match.broken', 'PUBG.replayinfo'), Buffer.from([0x7f, 0xe2, 0xa2, 0x1c, 0x7b, 0x22, 0x54]));
    await feeds.deliver(demos, broken).catch(() => undefined);
    const { feed } = feeds.opened[0]!;
    await feed.handler!({ path: 'match.broken/PUBG.replayinfo', absolutePath: path.join(demos, 'match.broken', 'PUBG.replayinfo'), size: 7 });
    const good = replay('match.good', 10, [myKnock(1000)]);
    await writeReplayFolder(demos, good);
    await feeds.deliver(demos, good);

    expect(summary(bookmarks.added)).to.deep.equal(['Kill 2026-11-24T19:11:01.000Z']);
    expect(logger.lines.filter(([level]) => level === 'warn')).to.deep.equal([
      ['warn', 'Skipped the replay match.broken: match.broken/PUBG.replayinfo is unreadable (it holds no complete JSON object)'],
    ]);
  });

  it('says in health when no replay appears during a recording, and clears it when one does', async () => {
    await integration.enable();
    await integration.activate(GAME);
    await delay(120);
    expect(health.degradations).to.have.length(1);
    expect(health.degradations[0]).to.match(/^No PUBG replay has appeared in 45 minutes of recording: .*replay recording is on/);
    const saved = replay('match.late', 0, [myKnock(1000)]);
    await writeReplayFolder(demos, saved);
    await feeds.deliver(demos, saved);
    expect(health.degradations.at(-1)).to.equal(undefined);
  });

  it('stops its health timer when deactivated', async () => {
    await integration.enable();
    await integration.activate(GAME);
    await integration.deactivate();
    await delay(120);
    expect(health.degradations).to.deep.equal([]);
  });
});
