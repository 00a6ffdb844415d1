import 'reflect-metadata';
import {
  Bookmarks, Feeds, GamePaths, Health, Logger,
  type BookmarkRequest, type BookmarksService, type Feed, type FeedsService, type GamePathsService, type HealthReporter,
  type PluginLogger, type TailInput, type TailOptions,
} from '@keyframe/core';
import { expect } from 'chai';
import { container, injectable } from 'tsyringe';
import { SurvivalGameIntegration } from './survival-game-integration.js';

const EXE = 'C:\\Games\\Rust\\RustClient.exe';
const LOG = 'C:\\Games\\Rust\\output_log.txt';

class FakeTailFeed implements Feed<TailInput> {
  readonly ready = Promise.resolve();
  handler: ((input: TailInput) => void | Promise<void>) | undefined;
  onInput(handler: (input: TailInput) => void | Promise<void>): void {
    this.handler = handler;
  }
  async close(): Promise<void> {}
  async deliver(...inputs: TailInput[]): Promise<void> {
    for (const input of inputs) await this.handler!(input);
  }
  lines(...lines: string[]): Promise<void> {
    return this.deliver(...lines.map((line) => ({ line, file: LOG })));
  }
}

class FakeFeeds implements FeedsService {
  readonly opened: Array<{ id: string; options: TailOptions; feed: FakeTailFeed }> = [];
  tail(id: string, options: TailOptions): Feed<TailInput> {
    const feed = new FakeTailFeed();
    this.opened.push({ id, options, feed });
    return feed;
  }
  httpPush(): never { throw new Error('not used'); }
  poll(): never { throw new Error('not used'); }
  watchFolder(): never { throw new Error('not used'); }
  get feed(): FakeTailFeed { return this.opened.at(-1)!.feed; }
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

/** The same integration with a missing-log limit short enough for a test. */
@injectable()
class QuickSurvivalGameIntegration extends SurvivalGameIntegration {
  protected override readonly missingLogTimeoutMs = 30;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SurvivalGameIntegration', () => {
  let feeds: FakeFeeds;
  let bookmarks: FakeBookmarks;
  let health: FakeHealth;
  let steamLibraries: () => Promise<string[]>;
  let integration: SurvivalGameIntegration;

  beforeEach(() => {
    feeds = new FakeFeeds();
    bookmarks = new FakeBookmarks();
    health = new FakeHealth();
    steamLibraries = async () => ['/steam'];
    const gamePaths: GamePathsService = {
      steamLibraries: () => steamLibraries(), roamingAppData: () => '/roaming', localAppData: () => '/local', home: () => '/home',
    };
    const child = container.createChildContainer();
    child.register(Feeds, { useValue: feeds });
    child.register(Bookmarks, { useValue: bookmarks });
    child.register(Logger, { useValue: silentLogger });
    child.register(Health, { useValue: health });
    child.register(GamePaths, { useValue: gamePaths });
    integration = child.resolve(QuickSurvivalGameIntegration);
  });
  afterEach(() => integration.deactivate());

  it('follows output_log.txt beside the running executable, then the Steam libraries\' Rust folder', async () => {
    await integration.activate({ name: 'Rust', executablePath: EXE });
    expect(feeds.opened.map(({ id, options }) => [id, options.paths])).to.deep.equal([
      ['log', [LOG, '/steam/steamapps/common/Rust/output_log.txt']],
    ]);
  });

  it('bookmarks one Death per death line and nothing for other lines or file changes', async () => {
    await integration.activate({ name: 'Rust', executablePath: EXE });
    await feeds.feed.deliver({ reset: 'opened', file: LOG });
    await feeds.feed.lines('2026-03-21T05:28:13.845Z|0x2a7c|Connecting: 64.40.8.152:28014 (Raknet)', '2026-03-21T05:34:35.817Z|0x2a7c|You died: killed by Suicide');
    await feeds.feed.deliver({ reset: 'truncated', file: LOG }, { reset: 'rotated', file: LOG });
    await feeds.feed.lines('2026-03-21T05:38:55.622Z|0x2a7c|You died: killed by Spooder-Man (76561199844640850)', 'garbage \ufffd');
    expect(bookmarks.added).to.deep.equal([{ type: 'Death' }, { type: 'Death' }]);
  });

  it('says in health when the log does not appear, and clears it once the file is followed', async () => {
    await integration.activate({ name: 'Rust', executablePath: EXE });
    await delay(60);
    expect(health.degradations).to.have.length(1);
    expect(health.degradations[0]).to.include(LOG).and.to.include('was not found');
    await feeds.feed.deliver({ reset: 'opened', file: LOG });
    expect(health.degradations.at(-1)).to.equal(undefined);
  });

  it('stays quiet in health when the log is found in time', async () => {
    await integration.activate({ name: 'Rust', executablePath: EXE });
    await feeds.feed.deliver({ reset: 'opened', file: LOG });
    await delay(60);
    expect(health.degradations).to.deep.equal([undefined]);
  });

  it('says at once that it cannot work when neither the executable nor a Steam library is known', async () => {
    steamLibraries = async () => [];
    await integration.activate({ name: 'Rust' });
    expect(feeds.opened).to.deep.equal([]);
    expect(health.degradations).to.have.length(1);
    expect(health.degradations[0]).to.match(/Cannot tell where Rust writes output_log\.txt/);
  });

  it('still follows the executable\'s folder when the Steam libraries cannot be listed', async () => {
    steamLibraries = () => Promise.reject(new Error('libraryfolders.vdf is corrupt'));
    await integration.activate({ name: 'Rust', executablePath: EXE });
    expect(feeds.opened[0]!.options.paths).to.deep.equal([LOG]);
  });

  it('bookmarks nothing after deactivate, and starts afresh on the next activation', async () => {
    await integration.activate({ name: 'Rust', executablePath: EXE });
    const first = feeds.feed;
    await integration.deactivate();
    await first.lines('You died: killed by Bear');
    expect(bookmarks.added).to.deep.equal([]);
    await integration.activate({ name: 'Rust', executablePath: EXE });
    await feeds.feed.lines('You died: killed by Bear');
    expect(bookmarks.added).to.deep.equal([{ type: 'Death' }]);
  });
});
