import 'reflect-metadata';
import {
  Bookmarks, Feeds, GamePaths, Health, Logger,
  type BookmarkRequest, type BookmarksService, type Feed, type FeedsService, type GamePathsService, type HealthReporter,
  type PluginLogger, type TailInput, type TailOptions,
} from '@keyframe/core';
import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { container } from 'tsyringe';
import { BEDROCK_GAME_NAME, BEDROCK_UNSUPPORTED_MESSAGE, BlockSandboxIntegration } from './block-sandbox-integration.js';

class FakeFeed implements Feed<TailInput> {
  readonly ready = Promise.resolve();
  handler: ((input: TailInput) => void | Promise<void>) | undefined;
  onInput(handler: (input: TailInput) => void | Promise<void>): void {
    this.handler = handler;
  }
  async close(): Promise<void> {}
  async deliver(input: TailInput): Promise<void> {
    await this.handler!(input);
  }
}

class FakeFeeds implements FeedsService {
  readonly opened: Array<{ id: string; options: TailOptions; feed: FakeFeed }> = [];
  tail(id: string, options: TailOptions): Feed<TailInput> {
    const feed = new FakeFeed();
    this.opened.push({ id, options, feed });
    return feed;
  }
  httpPush(): never { throw new Error('not used'); }
  poll(): never { throw new Error('not used'); }
  watchFolder(): never { throw new Error('not used'); }
  get feed(): FakeFeed { return this.opened.at(-1)!.feed; }
}

class FakeBookmarks implements BookmarksService {
  readonly added: BookmarkRequest[] = [];
  async add(request: BookmarkRequest): Promise<boolean> {
    this.added.push(request);
    return true;
  }
}

class FakeHealth implements HealthReporter {
  readonly degradations: Array<string | undefined> = [];
  degraded(reason: string | undefined): void { this.degradations.push(reason); }
  notify(): void {}
}

const silentLogger: PluginLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** The same integration with a no-log limit short enough for a test. */
class QuickBlockSandboxIntegration extends BlockSandboxIntegration {
  protected override readonly noLogTimeoutMs = 30;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const chat = (text: string) => `[16:37:42] [Render thread/INFO]: [CHAT] ${text}`;

describe('BlockSandboxIntegration', () => {
  let temp: string;
  let log: string;
  let feeds: FakeFeeds;
  let bookmarks: FakeBookmarks;
  let health: FakeHealth;
  let paths: GamePathsService;
  let integration: BlockSandboxIntegration;
  const quick = () => new QuickBlockSandboxIntegration(feeds, bookmarks, paths, silentLogger, health);

  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'block-sandbox-integration-'));
    log = path.join(temp, 'home', '.minecraft', 'logs', 'latest.log');
    await mkdir(path.dirname(log), { recursive: true });
    feeds = new FakeFeeds();
    bookmarks = new FakeBookmarks();
    health = new FakeHealth();
    paths = {
      steamLibraries: async () => [],
      roamingAppData: () => path.join(temp, 'roaming'),
      localAppData: () => path.join(temp, 'local'),
      home: () => path.join(temp, 'home'),
    };
    const child = container.createChildContainer();
    child.register(Feeds, { useValue: feeds });
    child.register(Bookmarks, { useValue: bookmarks });
    child.register(GamePaths, { useValue: paths });
    child.register(Logger, { useValue: silentLogger });
    child.register(Health, { useValue: health });
    integration = child.resolve(BlockSandboxIntegration);
  });
  afterEach(async () => {
    await integration.deactivate();
    await rm(temp, { recursive: true, force: true });
  });

  it('says in health that the Bedrock Edition is not supported, and opens nothing', async () => {
    await integration.activate({ name: BEDROCK_GAME_NAME, executablePath: 'C:\\XboxGames\\Minecraft for Windows\\Content\\Minecraft.Windows.exe' });
    expect(health.degradations).to.deep.equal([BEDROCK_UNSUPPORTED_MESSAGE]);
    expect(feeds.opened).to.deep.equal([]);
  });

  it('tails the candidate logs as bytes (latin1), the vanilla launcher folder among them', async () => {
    await integration.activate({ name: 'Minecraft' });
    expect(feeds.opened).to.have.length(1);
    expect(feeds.opened[0]!.id).to.equal('log');
    expect(feeds.opened[0]!.options.encoding).to.equal('latin1');
    expect(feeds.opened[0]!.options.paths).to.include(log);
  });

  it('finds the player at the start of the opened log and bookmarks only their deaths', async () => {
    await writeFile(log, '[16:25:05] [Render thread/INFO]: Setting user: MrChozo\n[16:26:43] [Render thread/INFO]: [CHAT] <MrChozo> hi\n');
    await integration.activate({ name: 'Minecraft' });
    await feeds.feed.deliver({ reset: 'opened', file: log });
    expect(health.degradations).to.deep.equal([undefined]);
    for (const text of ['MrChozo was shot by Skeleton', 'Alex was slain by MrChozo', '<MrChozo> I drowned', 'MrChozo drowned']) {
      await feeds.feed.deliver({ line: chat(text), file: log });
    }
    expect(bookmarks.added).to.deep.equal([{ type: 'Death' }, { type: 'Death' }]);
  });

  it('says why when the log does not name the player, and recovers when it does', async () => {
    await writeFile(log, '[16:25:05] [Render thread/INFO]: Starting\n');
    await integration.activate({ name: 'Minecraft' });
    await feeds.feed.deliver({ reset: 'opened', file: log });
    expect(health.degradations.at(-1)).to.match(/does not name the player \(no "Setting user:" line\)/);
    await feeds.feed.deliver({ line: chat('MrChozo drowned'), file: log });
    expect(bookmarks.added).to.deep.equal([]);
    await feeds.feed.deliver({ line: '[16:25:05] [Render thread/INFO]: Setting user: MrChozo', file: log });
    expect(health.degradations.at(-1)).to.equal(undefined);
    await feeds.feed.deliver({ line: chat('MrChozo drowned'), file: log });
    expect(bookmarks.added).to.have.length(1);
  });

  it('says which file it could not read', async () => {
    await integration.activate({ name: 'Minecraft' });
    await feeds.feed.deliver({ reset: 'opened', file: path.join(temp, 'gone.log') });
    expect(health.degradations.at(-1)).to.match(/gone\.log does not name the player \(cannot read it: ENOENT/);
  });

  it('warns when no log appears, naming where it looked and that Bedrock is not supported', async () => {
    integration = quick();
    await integration.activate({ name: 'Minecraft' });
    await delay(80);
    expect(health.degradations).to.have.length(1);
    expect(health.degradations[0]).to.include(log).and.to.include('Bedrock Edition is not supported');
  });

  it('does not warn when the log opens in time', async () => {
    await writeFile(log, '[16:25:05] [Render thread/INFO]: Setting user: MrChozo\n');
    integration = quick();
    await integration.activate({ name: 'Minecraft' });
    await feeds.feed.deliver({ reset: 'opened', file: log });
    await delay(80);
    expect(health.degradations).to.deep.equal([undefined]);
  });

  it('ignores what arrives after deactivate, and starts over with no player on the next activation', async () => {
    await writeFile(log, '[16:25:05] [Render thread/INFO]: Setting user: MrChozo\n');
    await integration.activate({ name: 'Minecraft' });
    const first = feeds.feed;
    await first.deliver({ reset: 'opened', file: log });
    await integration.deactivate();
    await first.deliver({ line: chat('MrChozo drowned'), file: log });
    await integration.activate({ name: 'Minecraft' });
    await integration.activate({ name: 'Minecraft' }); // twice: still one timer, one handler per feed
    await feeds.feed.deliver({ line: chat('MrChozo drowned'), file: log });
    expect(bookmarks.added).to.deep.equal([]);
  });
});
