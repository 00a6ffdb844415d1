import 'reflect-metadata';
import { expect } from 'chai';
import { inject, injectable } from 'tsyringe';
import type { Feeds as FeedsService, PollInput } from '../sdk/feed-types.js';
import type {
  BookmarkRequest,
  Bookmarks as BookmarksService,
  DetectedGame,
  GameIntegration,
  HealthReporter,
  PluginLogger,
} from '../sdk/game-integration.js';
import { Bookmarks, Feeds, Health } from '../sdk/tokens.js';
import { ManualClock } from './fakes/manual-clock.js';
import { ScriptedFeeds, type ScriptedFeed } from './fakes/scripted-feeds.js';
import { ScriptedRecorder } from './fakes/scripted-recorder.js';
import { IntegrationLifecycle, type DesiredState } from './lifecycle.js';
import type { IntegrationManifest } from './manifest.js';

const GAME: DetectedGame = { name: 'Test Game' };
const MANIFEST: IntegrationManifest = {
  apiVersion: 1,
  integration: {
    key: 'testGame',
    displayName: 'Test Game',
    events: ['Kill'],
    games: [{ name: GAME.name, executables: ['test.exe'] }],
    feeds: ['poll'],
  },
};

/** What the integration under test saw, in order. */
const seen: string[] = [];
const behaviour: {
  expectData?: { within: number; message: string };
  bookmark?: BookmarkRequest['type'];
  openTail?: boolean;
  /** What deactivate() does first: a game's input arriving just then. */
  onDeactivate?: () => Promise<void>;
} = {};

@injectable()
class Recording implements GameIntegration {
  constructor(
    @inject(Feeds) private readonly feeds: FeedsService,
    @inject(Bookmarks) private readonly bookmarks: BookmarksService,
    @inject(Health) health: HealthReporter,
  ) {
    if (behaviour.expectData) health.expectData(behaviour.expectData);
  }

  async activate(): Promise<void> {
    seen.push('activate');
    if (behaviour.openTail) this.feeds.tail('log', { paths: ['x.log'] });
    this.feeds.poll('state', { url: 'http://127.0.0.1:1/', intervalMs: 1000 }).onInput(async (input) => {
      seen.push(`input ${'error' in input ? input.error : input.status}`);
      if (behaviour.bookmark) await this.bookmarks.add({ type: behaviour.bookmark });
    });
  }

  async deactivate(): Promise<void> {
    await behaviour.onDeactivate?.();
    seen.push('deactivate');
  }
}

describe('IntegrationLifecycle', () => {
  let desired: DesiredState;
  let feeds: ScriptedFeeds;
  let lines: string[];
  let changes: number;
  let lifecycle: IntegrationLifecycle;
  let covered: boolean;

  beforeEach(() => {
    seen.length = 0;
    for (const key of Object.keys(behaviour) as (keyof typeof behaviour)[]) delete behaviour[key];
    desired = { enabled: true };
    lines = [];
    changes = 0;
    covered = true;
    const record =
      (level: string): PluginLogger['info'] =>
      (message) => {
        lines.push(`${level} ${message}`);
      };
    const logger: PluginLogger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
    lifecycle = new IntegrationLifecycle({
      key: 'testGame',
      manifest: MANIFEST,
      desired: () => desired,
      load: async () => Recording,
      feeds: () => (feeds = new ScriptedFeeds()),
      bookmarks: { add: async () => covered },
      recorder: new ScriptedRecorder(),
      enabled: () => desired.enabled,
      clock: new ManualClock(),
      gamePaths: { steamLibraries: async () => [], roamingAppData: () => '/r', localAppData: () => '/l', home: () => '/h' },
      pluginLogger: logger,
      logger,
      notify: () => undefined,
      changed: () => {
        changes += 1;
      },
    });
  });
  afterEach(() => lifecycle.stop());

  const poll = (): ScriptedFeed<PollInput> => feeds.latest('poll', 'state');
  const activate = async () => {
    desired = { enabled: true, activeFor: GAME };
    await lifecycle.reconcile();
  };

  it('hands no feed input over once deactivate has begun', async () => {
    await activate();
    expect(lifecycle.phase).to.equal('active');
    await poll().deliver({ error: 'first' });
    const feed = poll();
    behaviour.onDeactivate = () => feed.deliver({ error: 'late' });
    desired = { enabled: true };
    await lifecycle.reconcile();
    expect(seen).to.deep.equal(['activate', 'input first', 'deactivate']);
    expect(lifecycle.phase).to.equal('enabled');
  });

  it('times the silence expectData declares once per gap, and takes it back at the next input and at deactivate', async () => {
    behaviour.expectData = { within: 30, message: 'nothing heard' };
    await activate();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(lifecycle.problem).to.equal('nothing heard');
    expect(lines.filter((line) => line === 'info integration degraded')).to.have.length(1);
    await poll().deliver({ error: 'x' });
    expect(lifecycle.problem).to.equal(undefined);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(lifecycle.problem).to.equal('nothing heard');
    desired = { enabled: true };
    await lifecycle.reconcile();
    expect(lifecycle.problem).to.equal(undefined);
  });

  it('refuses a bookmark type the manifest does not declare, says so once in health and the log', async () => {
    behaviour.bookmark = 'Death';
    await activate();
    const before = changes;
    await poll().deliver({ error: 'a' });
    await poll().deliver({ error: 'b' });
    expect(lifecycle.problem).to.match(/tried to add Death bookmarks, which its manifest does not declare/);
    expect(lines.filter((line) => line.startsWith('warn Death not bookmarked'))).to.have.length(1);
    expect(changes).to.be.greaterThan(before);
  });

  it('logs a bookmark no recording covers, so that plugins need not', async () => {
    behaviour.bookmark = 'Kill';
    covered = false;
    await activate();
    await poll().deliver({ error: 'a' });
    expect(lines).to.include('debug Kill not bookmarked: no recording covers it');
  });

  it('fails an activate that opens a feed kind the manifest does not declare, naming the manifest field', async () => {
    behaviour.openTail = true;
    await activate();
    expect(lifecycle.phase).to.equal('failed');
    expect(lifecycle.failure).to.match(/^activate\(\) failed: testGame opened a tail feed \("log"\) that its manifest does not declare/);
  });

  it('runs enable, activate, deactivate and disable in order, one at a time', async () => {
    await activate();
    desired = { enabled: false };
    await lifecycle.reconcile();
    expect(seen).to.deep.equal(['activate', 'deactivate']);
    expect(lifecycle.phase).to.equal('disabled');
    expect(lines.filter((line) => line.endsWith('d integration'))).to.deep.equal([
      'info enabled integration',
      'info activated integration',
      'info deactivated integration',
      'info disabled integration',
    ]);
  });
});
