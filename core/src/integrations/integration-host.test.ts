import 'reflect-metadata';
import { expect } from 'chai';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClosableFeeds } from '../sdk/feed-observer.js';
import type { Feed, PollInput } from '../sdk/feed-types.js';
import { toWirePath, type EventContent, type EventName, type IntegrationHealth, type IntegrationSetting } from '../protocol/index.js';
import { GameDetector, PROCESS_LISTER, type ProcessLister } from '../games/game-detector.js';
import { IntegrationSettingsSchemas } from '../settings/integration-settings-schemas.js';
import { SettingsStore } from '../settings/settings-store.js';
import { StatePublisher } from '../state/state-publisher.js';
import { FrameDemand } from '../recording/frame-demand.js';
import { Logger, type LogRecord } from '../support/logger.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import type { BookmarkRequest } from '../sdk/game-integration.js';
import { appVersion } from '../support/app-version.js';
import { ScriptedRecorder } from './fakes/scripted-recorder.js';
import { INTEGRATION_HOST_ENVIRONMENT, IntegrationHost, type IntegrationHostEnvironment } from './integration-host.js';
import { PluginApprovals } from './plugin-approvals.js';
import type { PluginSource } from './plugin-folders.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

type Hook = 'enable' | 'disable' | 'activate' | 'deactivate';
type Behaviour = Partial<Record<Hook, 'throw' | 'reject' | 'hang'>>;

// Fixture packages live inside the repository so that `tsyringe` and `@keyframe/core` resolve.
const FIXTURE_ROOT = fileURLToPath(new URL('../../.test-plugins/', import.meta.url));
const calls: string[] = ((globalThis as { __hostTestCalls?: string[] }).__hostTestCalls ??= []);
/** What a fixture's deactivate() does first (the test's chance to push a feed input then). */
const hooks = ((globalThis as { __hostTestHooks?: { onDeactivate?: () => void } }).__hostTestHooks ??= {});

interface FixtureOptions {
  key: string;
  behaviour?: Behaviour;
  manifest?: unknown;
  bundlesCore?: boolean;
  /** activate() opens a poll feed "input" whose inputs it logs as calls. */
  opensFeed?: boolean;
  /** The constructor calls `health.expectData` with it. */
  expectsData?: { within: number; message: string };
  /** The class's static `settings` (a JSON Schema); activate() and a change log its values as calls. */
  settings?: unknown;
}

async function writeFixture(folder: string, name: string, options: FixtureOptions): Promise<void> {
  const root = path.join(folder, name);
  await mkdir(root, { recursive: true });
  const manifest = options.manifest ?? {
    apiVersion: 1,
    integration: {
      key: options.key,
      displayName: `Fixture ${options.key}`,
      events: ['Kill'],
      games: [{ name: `Game ${options.key}`, executables: [`${options.key}.exe`] }],
      feeds: options.opensFeed ? ['poll'] : [],
    },
  };
  await writeFile(
    path.join(root, 'package.json'),
    JSON.stringify({ name: `fixture-${name}`, type: 'module', main: 'index.js', engines: { keyframe: '>=0.1.0' }, keyframe: manifest }),
  );
  if (options.bundlesCore) await mkdir(path.join(root, 'node_modules', '@keyframe', 'core'), { recursive: true });
  await writeFile(
    path.join(root, 'index.js'),
    `
import { inject, injectable } from 'tsyringe';
import { Bookmarks, Feeds, Health, IntegrationSettings } from '@keyframe/core';
const calls = globalThis.__hostTestCalls;
const behaviour = ${JSON.stringify(options.behaviour ?? {})};
const opensFeed = ${JSON.stringify(options.opensFeed ?? false)};
const expectsData = ${JSON.stringify(options.expectsData ?? null)}, declaresSettings = ${JSON.stringify(options.settings !== undefined)};
async function run(hook, detail) {
  calls.push('${options.key}:' + hook + (detail ? ':' + detail : ''));
  if (behaviour[hook] === 'throw') throw new Error(hook + ' exploded');
  if (behaviour[hook] === 'reject') return Promise.reject(new Error(hook + ' rejected'));
  if (behaviour[hook] === 'hang') return new Promise(() => {});
}
class Fixture {
  constructor(bookmarks, feeds, health, settings) {
    this.bookmarks = bookmarks; this.feeds = feeds;
    if (settings.port !== undefined) calls.push('${options.key}:port:' + settings.port);
    if (expectsData) health.expectData(expectsData); this.settings = settings; if (declaresSettings) settings.onChange((values) => { calls.push('${options.key}:changed:' + JSON.stringify(values)); });
  }
  enable() { return run('enable'); }
  disable() { return run('disable'); }
  activate(game) { if (declaresSettings) calls.push('${options.key}:values:' + JSON.stringify(this.settings.values));
    if (opensFeed) this.feeds.poll('input', {}).onInput((input) => { calls.push('${options.key}:input:' + input.error); });
    return run('activate', game.name).then(() => this.bookmarks.add({ type: 'Kill' }));
  }
  deactivate() { globalThis.__hostTestHooks.onDeactivate?.(); return run('deactivate'); }
}
Reflect.defineMetadata('design:paramtypes', [Object, Object, Object, Object], Fixture);
inject(Bookmarks)(Fixture, undefined, 0);
inject(Feeds)(Fixture, undefined, 1);
inject(Health)(Fixture, undefined, 2);
inject(IntegrationSettings)(Fixture, undefined, 3);
${options.settings === undefined ? '' : `Fixture.settings = ${JSON.stringify(options.settings)};`}
export default injectable()(Fixture) ?? Fixture;
`,
  );
}

/** A package for `key` whose files are written as given (a module that does not load, a constructor that throws). */
async function writeRawPackage(folder: string, name: string, key: string, files: Record<string, string>): Promise<string> {
  const root = path.join(folder, name);
  const manifest = {
    apiVersion: 1,
    integration: {
      key,
      displayName: `Raw ${key}`,
      events: ['Kill'],
      games: [{ name: `Game ${key}`, executables: [`${key}.exe`] }],
      feeds: [],
    },
  };
  await mkdir(path.join(root, 'dist'), { recursive: true });
  await writeFile(
    path.join(root, 'package.json'),
    JSON.stringify({ name: `raw-${name}`, type: 'module', main: 'dist/index.js', keyframe: manifest }),
  );
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(root, file), text);
  return root;
}

const silentSink: EventSink = { isConnected: false, send<E extends EventName>(_method: E, _content: EventContent<E>) {} };
const waitUntil = async (condition: () => boolean, timeoutMs = 3000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('IntegrationHost', function () {
  let app: TestApp | undefined;
  let folder: string;
  let plugins: string;
  let processes: { pid: number; executable: string }[];
  let recorder: ScriptedRecorder;
  let settings: SettingsStore;
  let state: StatePublisher;
  let frameDemand: FrameDemand;
  let games: GameDetector;
  let host: IntegrationHost;
  let bookmarks: { key: string; request: BookmarkRequest }[];
  /** What the host's bookmarks answer: false as when no recording covers the time. */
  let covered: boolean;
  let logged: LogRecord[];
  let closedFeeds: string[];
  /** Hands an input to the fixture's open "input" feed, as a game would (nothing once the feed is closed). */
  let pushInput: (input: string) => void;

  beforeEach(async () => {
    calls.length = 0;
    await mkdir(FIXTURE_ROOT, { recursive: true });
    folder = await mkdtemp(path.join(FIXTURE_ROOT, 'host-'));
    plugins = path.join(folder, 'plugins');
    processes = [];
    recorder = new ScriptedRecorder();
    frameDemand = new FrameDemand();
    bookmarks = [];
    covered = true;
    logged = [];
    closedFeeds = [];
    pushInput = () => {
      throw new Error('no feed open');
    };
    hooks.onDeactivate = undefined;
  });
  afterEach(async () => {
    await host?.stop();
    games?.stop();
    await app?.dispose();
    app = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  async function startHost(deadlineMs = 500, source: PluginSource = 'environment'): Promise<void> {
    const logger = new Logger([{ write: (record) => logged.push(record), close: () => undefined }]);
    const listProcesses: ProcessLister = async () => processes;
    const environment: IntegrationHostEnvironment = {
      searchFolders: [{ path: plugins, source }],
      approvals: new PluginApprovals(path.join(folder, 'plugin-approvals.json')),
      recorder,
      frameDemand,
      bookmarksFor: (key) => ({
        add: async (request) => {
          bookmarks.push({ key, request });
          return covered;
        },
      }),
      feedsFor: (key): ClosableFeeds => {
        const unused = (): never => {
          throw new Error('unused');
        };
        let opened = false;
        let closed = false;
        return {
          httpPush: unused,
          poll: (): Feed<PollInput> => ({
            ready: Promise.resolve(),
            onInput: (handler) => {
              opened = true;
              pushInput = (input) => {
                if (!closed) void handler({ error: input });
              };
            },
            close: async () => {
              closed = true;
            },
          }),
          tail: unused,
          watchFolder: unused,
          screenText: unused,
          tcp: unused,
          webSocket: unused,
          udp: unused,
          pushToken: () => Promise.reject(new Error('unused')),
          closeAll: async () => {
            closed = true;
            closedFeeds.push(key);
            if (opened) calls.push(`${key}:closeAll`);
          },
        };
      },
      gamePaths: { steamLibraries: async () => [], roamingAppData: () => folder, localAppData: () => folder, home: () => folder },
      hookDeadlineMs: deadlineMs,
      restartDelayMs: () => 20,
    };
    app = await createTestApp({
      dataFolder: folder,
      settings: {},
      overrides: [
        [Logger, logger],
        [EVENT_SINK, silentSink],
        [PROCESS_LISTER, listProcesses],
        [INTEGRATION_HOST_ENVIRONMENT, environment],
      ],
    });
    settings = app.resolve(SettingsStore);
    state = app.resolve(StatePublisher);
    games = app.resolve(GameDetector);
    host = app.resolve(IntegrationHost);
    state.follow({ integrations: host, integrationSettings: app.resolve(IntegrationSettingsSchemas) });
    await host.start();
  }
  const health = (key: string): IntegrationHealth => state.current.integrations[key]!;
  const switchIntegration = (key: string, enabled: boolean) =>
    settings.replace({ ...settings.current, gameIntegrations: { ...settings.current.gameIntegrations, [key]: { enabled } } });
  const launchGame = async (key: string) => {
    processes.push({ pid: 4242, executable: `/games/${key}.exe` });
    await games.detect();
    await host.settled();
  };

  it('discovers good plugins and refuses bad ones with a reason in their health', async () => {
    await writeFixture(plugins, 'good', { key: 'goodGame' });
    await writeFixture(plugins, 'duplicate', { key: 'goodGame' });
    await writeFixture(plugins, 'bad-manifest', { key: 'badManifest', manifest: { apiVersion: 1, integration: { key: 'badManifest' } } });
    await writeFixture(plugins, 'future', {
      key: 'futureGame',
      manifest: {
        apiVersion: 9,
        integration: { key: 'futureGame', displayName: 'F', events: ['Kill'], games: [{ name: 'F', executables: ['f'] }], feeds: [] },
      },
    });
    await writeFixture(plugins, 'bundled', { key: 'bundledCore', bundlesCore: true });
    await startHost();

    expect(host.keys).to.deep.equal(['goodGame']);
    const reasons = host.refusedPlugins.map((refusal) => refusal.reason).join('\n');
    expect(reasons).to.match(/duplicate key goodGame/);
    expect(reasons).to.match(/bad keyframe manifest/);
    expect(reasons).to.match(/apiVersion 9 is not supported/);
    expect(reasons).to.match(/bundles its own copy of @keyframe\/core/);
    expect(health('futureGame')).to.deep.include({ status: 'failed' });
    expect(health('bundledCore').message).to.match(/peer dependency/);
    expect(health('goodGame')).to.deep.include({ status: 'idle', displayName: 'Fixture goodGame' });
  });

  it('runs a third-party plugin only once approved with its hash, and not again after its code changed', async () => {
    await writeFixture(plugins, 'third', { key: 'thirdGame' });
    await startHost(500, 'user');
    const shown = health('thirdGame').approval!;
    expect(shown).to.deep.include({ status: 'pending', packageName: 'fixture-third' });
    expect(health('thirdGame').status).to.equal('disabled');
    expect(settings.current.gameIntegrations).to.not.have.property('thirdGame');
    expect(calls).to.deep.equal([]);
    const wrong = await host.approve('thirdGame', '0'.repeat(64)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(wrong).to.have.property('code', 'InvalidParameters');
    expect(calls).to.deep.equal([]);

    await host.approve('thirdGame', shown.hash);
    expect(calls).to.deep.equal(['thirdGame:enable']);
    expect(health('thirdGame').approval!.status).to.equal('approved');
    expect(settings.current.gameIntegrations.thirdGame).to.deep.equal({ enabled: true });

    // Switched off, changed on disk, switched on again: the new contents are not imported.
    settings.replace({ ...settings.current, gameIntegrations: { ...settings.current.gameIntegrations, thirdGame: { enabled: false } } });
    await host.settled();
    await appendFile(path.join(plugins, 'third', 'index.js'), '\n// changed\n');
    settings.replace({ ...settings.current, gameIntegrations: { ...settings.current.gameIntegrations, thirdGame: { enabled: true } } });
    await host.settled();
    expect(calls).to.deep.equal(['thirdGame:enable', 'thirdGame:disable']);
    expect(health('thirdGame').approval!.status).to.equal('pending');
    expect(health('thirdGame').approval!.hash).to.not.equal(shown.hash);
  });

  it('on refresh, loads a package installed since the start, and notes an update or removal of a running one for the next start', async () => {
    await writeFixture(plugins, 'first', { key: 'firstGame' });
    await startHost();
    await writeFixture(plugins, 'later', { key: 'laterGame' });
    const updated = JSON.parse(await readFile(path.join(plugins, 'first', 'package.json'), 'utf8')) as object;
    await writeFile(path.join(plugins, 'first', 'package.json'), JSON.stringify({ ...updated, version: '0.2.0' }));
    await host.refresh();
    await host.settled();
    expect(calls).to.include('laterGame:enable');
    expect(health('laterGame').status).to.equal('idle');
    expect(settings.current.gameIntegrations.laterGame).to.deep.equal({ enabled: true });
    expect(health('firstGame').status, 'the loaded one keeps running').to.equal('idle');
    expect(state.current.integrationPackages).to.deep.equal([
      {
        packageName: 'fixture-first',
        version: '',
        folder: toWirePath(path.join(plugins, 'first')),
        key: 'firstGame',
        status: 'restartNeeded',
        reason: 'Updated to 0.2.0 — restart Keyframe to use it',
        warnings: [],
      },
    ]);
    await rm(path.join(plugins, 'later'), { recursive: true });
    await writeFile(path.join(plugins, 'first', 'package.json'), JSON.stringify({ ...updated, engines: { keyframe: '^99.0.0' } }));
    await host.refresh();
    expect(state.current.integrationPackages.map((entry) => [entry.key, entry.status, entry.reason])).to.deep.equal([
      ['firstGame', 'refused', `needs Keyframe ^99.0.0; this is ${appVersion()}`],
      [
        'firstGame',
        'restartNeeded',
        `Replaced on disk by a package Keyframe refuses (needs Keyframe ^99.0.0; this is ${appVersion()}) — the running one stays until Keyframe restarts`,
      ],
      ['laterGame', 'restartNeeded', 'Removed — restart Keyframe to unload it'],
    ]);
  });

  it('adds the settings key of a newly installed plugin, switched on', async () => {
    await writeFixture(plugins, 'fresh', { key: 'freshGame' });
    await startHost();
    expect(settings.current.gameIntegrations.freshGame).to.deep.equal({ enabled: true });
  });

  it('runs the lifecycle in order: enable, activate with the game during a recording, deactivate when the game exits', async () => {
    await writeFixture(plugins, 'life', { key: 'lifeGame' });
    await startHost();
    expect(calls).to.deep.equal(['lifeGame:enable']);

    await launchGame('lifeGame');
    expect(calls).to.deep.equal(['lifeGame:enable'], 'a running game alone does not activate');
    recorder.start({ startedAt: new Date(), game: 'x' });
    await waitUntil(() => calls.length === 2);
    await host.settled();
    expect(calls).to.deep.equal(['lifeGame:enable', 'lifeGame:activate:Game lifeGame']);
    expect(health('lifeGame').status).to.equal('active');
    expect(bookmarks).to.deep.equal([{ key: 'lifeGame', request: { type: 'Kill' } }]);

    processes.length = 0;
    await games.detect();
    await host.settled();
    expect(calls.at(-1)).to.equal('lifeGame:deactivate');
    expect(closedFeeds).to.include('lifeGame');
    expect(health('lifeGame').status).to.equal('idle');
  });

  it('stops feed delivery before deactivate(): an input that comes while it runs never reaches the plugin', async () => {
    await writeFixture(plugins, 'feeder', { key: 'feedGame', opensFeed: true });
    await startHost();
    await launchGame('feedGame');
    recorder.start({ startedAt: new Date(), game: 'x' });
    await waitUntil(() => calls.includes('feedGame:activate:Game feedGame'));
    await host.settled();
    pushInput('early');
    await waitUntil(() => calls.includes('feedGame:input:early'));
    hooks.onDeactivate = () => pushInput('late');
    recorder.stop();
    await host.settled();
    await new Promise((resolve) => setImmediate(resolve));
    const afterActivate = calls.slice(calls.indexOf('feedGame:input:early') + 1);
    expect(afterActivate).to.deep.equal(['feedGame:closeAll', 'feedGame:deactivate']);
  });

  it('logs a bookmark no recording covers, naming the integration, so that plugins need not', async () => {
    await writeFixture(plugins, 'late', { key: 'lateGame' });
    covered = false;
    await startHost();
    await launchGame('lateGame');
    recorder.start({ startedAt: new Date(), game: 'x' });
    await waitUntil(() => bookmarks.length === 1);
    await host.settled();
    const lines = logged.filter((record) => record.message.includes('not bookmarked'));
    expect(lines.map(({ level, message, fields }) => ({ level, message, fields }))).to.deep.equal([
      { level: 'debug', message: 'Kill not bookmarked: no recording covers it', fields: { key: 'lateGame' } },
    ]);
  });

  it('says in health when the data a plugin expects does not come, until it comes, and not once inactive', async () => {
    const message = 'No data from the game yet';
    await writeFixture(plugins, 'quiet', { key: 'quietGame', opensFeed: true, expectsData: { within: 50, message } });
    await startHost();
    await launchGame('quietGame');
    recorder.start({ startedAt: new Date(), game: 'x' });
    await waitUntil(() => health('quietGame')?.message === message);
    expect(health('quietGame').status).to.equal('degraded');
    pushInput('hello');
    await waitUntil(() => health('quietGame').status === 'active');
    await waitUntil(() => health('quietGame').message === message, 1000);
    recorder.stop();
    await host.settled();
    expect(health('quietGame').status).to.equal('idle');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(health('quietGame').status, 'an inactive plugin is expected to be silent').to.equal('idle');
  });

  it('refuses a bookmark type the manifest does not declare: logged once, said in health, never added', async () => {
    await writeFixture(plugins, 'sneaky', {
      key: 'sneakyGame',
      manifest: {
        apiVersion: 1,
        integration: {
          key: 'sneakyGame',
          displayName: 'Sneaky',
          events: ['Death'],
          games: [{ name: 'Game sneakyGame', executables: ['sneakyGame.exe'] }],
          feeds: [],
        },
      },
    });
    await startHost();
    await launchGame('sneakyGame');
    for (let round = 0; round < 2; round++) {
      recorder.start({ startedAt: new Date(), game: 'x' });
      await waitUntil(() => calls.filter((call) => call.startsWith('sneakyGame:activate')).length === round + 1);
      await host.settled();
      recorder.stop();
      await host.settled();
    }
    expect(bookmarks).to.deep.equal([]);
    const warnings = logged.filter((record) => record.level === 'warn' && record.message.startsWith('Kill not bookmarked'));
    expect(warnings.map(({ message, fields }) => ({ message, fields }))).to.deep.equal([
      { message: 'Kill not bookmarked: the manifest does not declare it in keyframe.integration.events', fields: { key: 'sneakyGame' } },
    ]);
    expect(health('sneakyGame')).to.deep.include({ status: 'degraded' });
    expect(health('sneakyGame').message).to.match(
      /tried to add Kill bookmarks, which its manifest does not declare \(keyframe\.integration\.events/,
    );
  });

  it('refuses to open a feed kind the manifest does not declare, naming the manifest field', async () => {
    await writeFixture(plugins, 'undeclared', {
      key: 'undeclaredGame',
      opensFeed: true,
      manifest: {
        apiVersion: 1,
        integration: {
          key: 'undeclaredGame',
          displayName: 'Undeclared',
          events: ['Kill'],
          games: [{ name: 'Game undeclaredGame', executables: ['undeclaredGame.exe'] }],
          feeds: ['tail'],
        },
      },
    });
    await startHost();
    await launchGame('undeclaredGame');
    recorder.start({ startedAt: new Date(), game: 'x' });
    await waitUntil(() => health('undeclaredGame')?.status === 'failed');
    expect(health('undeclaredGame').message).to.equal(
      'activate() failed: undeclaredGame opened a poll feed ("input") that its manifest does not declare: ' +
        'add "poll" to keyframe.integration.feeds in its package.json (at index.js:23)',
    );
  });

  it('hands the plugin the port its manifest declares for its httpPush feed', async () => {
    await writeFixture(plugins, 'pusher', {
      key: 'portGame',
      manifest: {
        apiVersion: 1,
        integration: {
          key: 'portGame',
          displayName: 'Port',
          events: ['Kill'],
          games: [{ name: 'Game portGame', executables: ['portGame.exe'] }],
          feeds: ['httpPush:1777'],
        },
      },
    });
    await writeFixture(plugins, 'portless', { key: 'portlessGame' });
    await startHost();
    expect(calls.filter((call) => call.includes(':port:'))).to.deep.equal(['portGame:port:1777']);
  });

  it('deactivates when the recording stops, and disables when switched off in the settings', async () => {
    await writeFixture(plugins, 'life', { key: 'lifeGame' });
    await startHost();
    await launchGame('lifeGame');
    recorder.start({ startedAt: new Date(), game: 'x' });
    await waitUntil(() => calls.includes('lifeGame:activate:Game lifeGame'));
    recorder.stop();
    await waitUntil(() => calls.includes('lifeGame:deactivate'));
    settings.replace({ ...settings.current, gameIntegrations: { ...settings.current.gameIntegrations, lifeGame: { enabled: false } } });
    await waitUntil(() => calls.includes('lifeGame:disable'));
    await host.settled();
    expect(health('lifeGame').status).to.equal('disabled');
  });

  it('wants frames for on-screen text while an enabled integration that reads it has its game running', async () => {
    await writeFixture(plugins, 'reader', {
      key: 'textGame',
      manifest: {
        apiVersion: 1,
        integration: {
          key: 'textGame',
          displayName: 'Text',
          events: ['Goal'],
          games: [{ name: 'Game textGame', executables: ['textGame.exe'] }],
          feeds: ['screenText:events'],
        },
      },
    });
    await writeFixture(plugins, 'pusher', { key: 'pushGame' });
    await startHost();
    await launchGame('pushGame');
    expect(frameDemand.screenFramesWanted, 'a game whose integration reads no text').to.equal(false);
    await launchGame('textGame');
    expect(frameDemand.screenFramesWanted).to.equal(true);
    settings.replace({ ...settings.current, gameIntegrations: { ...settings.current.gameIntegrations, textGame: { enabled: false } } });
    await host.settled();
    expect(frameDemand.screenFramesWanted, 'switched off').to.equal(false);
  });

  it('with activation "game" is active while its game runs, recording or not', async () => {
    await writeFixture(plugins, 'replays', {
      key: 'replayGame',
      manifest: {
        apiVersion: 1,
        integration: {
          key: 'replayGame',
          displayName: 'Replays',
          events: ['Kill'],
          games: [{ name: 'Game replayGame', executables: ['replayGame.exe'] }],
          feeds: [],
          activation: 'game',
        },
      },
    });
    await startHost();
    await launchGame('replayGame');
    await waitUntil(() => calls.includes('replayGame:activate:Game replayGame'));
    recorder.start({ startedAt: new Date(), game: 'x' });
    recorder.stop();
    await host.settled();
    expect(calls).to.deep.equal(['replayGame:enable', 'replayGame:activate:Game replayGame']);
    expect(health('replayGame').status).to.equal('active');
    processes.length = 0;
    await games.detect();
    await host.settled();
    expect(calls.at(-1)).to.equal('replayGame:deactivate');
  });

  it('restarts a plugin whose deactivate() throws: it is enabled again and waits for the next recording', async () => {
    await writeFixture(plugins, 'broken', { key: 'brokenGame', behaviour: { deactivate: 'throw' } });
    await startHost();
    await launchGame('brokenGame');
    recorder.start({ startedAt: new Date(), game: 'x' });
    await waitUntil(() => calls.includes('brokenGame:activate:Game brokenGame'));
    recorder.stop();
    await waitUntil(() => calls.filter((call) => call === 'brokenGame:enable').length === 2);
    await host.settled();
    expect(closedFeeds).to.include('brokenGame');
    expect(health('brokenGame').status).to.equal('idle');
  });

  for (const [hook, behaviour] of [
    ['enable', 'throw'],
    ['activate', 'reject'],
    ['activate', 'hang'],
  ] as const) {
    it(`contains a plugin whose ${hook}() does ${behaviour}: failed with the message, restarted at most ${3} times, others unaffected`, async () => {
      await writeFixture(plugins, 'broken', { key: 'brokenGame', behaviour: { [hook]: behaviour } });
      await writeFixture(plugins, 'healthy', { key: 'healthyGame' });
      await startHost(100);
      processes.push({ pid: 1, executable: 'brokenGame.exe' }, { pid: 2, executable: 'healthyGame.exe' });
      await games.detect();
      recorder.start({ startedAt: new Date(), game: 'x' });
      await host.settled();
      const attempts = () => calls.filter((call) => call.startsWith(`brokenGame:${hook}`)).length;
      await waitUntil(() => attempts() === 4 && health('brokenGame').status === 'failed', 5000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(attempts()).to.equal(4);
      expect(health('brokenGame').message).to.match(
        behaviour === 'hang' ? /did not finish within 100 ms/ : new RegExp(`${hook}\\(\\) failed`),
      );
      expect(calls).to.include('healthyGame:activate:Game healthyGame');
      expect(health('healthyGame').status).to.equal('active');
    });
  }

  it('deactivates at shutdown without disabling', async () => {
    await writeFixture(plugins, 'life', { key: 'lifeGame' });
    await startHost();
    await launchGame('lifeGame');
    recorder.start({ startedAt: new Date(), game: 'x' });
    await waitUntil(() => calls.includes('lifeGame:activate:Game lifeGame'));
    await host.stop();
    expect(calls.slice(-1)).to.deep.equal(['lifeGame:deactivate']);
  });

  it('gives a failed plugin a fresh start when it is switched off and on', async () => {
    await writeFixture(plugins, 'broken', { key: 'brokenGame', behaviour: { enable: 'throw' } });
    await startHost();
    await waitUntil(() => calls.filter((call) => call === 'brokenGame:enable').length === 4);
    await host.settled();
    switchIntegration('brokenGame', false);
    await host.settled();
    expect(health('brokenGame').status).to.equal('disabled');
    switchIntegration('brokenGame', true);
    await waitUntil(() => calls.filter((call) => call === 'brokenGame:enable').length === 5);
  });

  describe('settings an integration declares', () => {
    const schema = {
      type: 'object',
      properties: { region: { enum: ['eu', 'na'], default: 'eu', title: 'Region' }, rate: { type: 'integer', minimum: 1, default: 2 } },
    };
    const setEntry = (key: string, entry: IntegrationSetting) =>
      settings.replace({
        ...settings.current,
        gameIntegrations: { ...settings.current.gameIntegrations, [key]: entry },
      });

    it('shows them in State while switched off, gives the plugin the stored values (defaults for the rest) and tells it of a change', async () => {
      await writeFixture(plugins, 'tuned', { key: 'tunedGame', settings: schema });
      await writeFixture(plugins, 'plain', { key: 'plainGame' });
      await writeFile(
        path.join(folder, 'settings.json'),
        JSON.stringify({ gameIntegrations: { tunedGame: { enabled: false, region: 'na', rate: 0 } } }),
      );
      await startHost();
      expect(state.current.integrationSettings).to.deep.equal({ tunedGame: schema });
      expect(calls.filter((call) => call.startsWith('tunedGame:'))).to.deep.equal([]);

      setEntry('tunedGame', { enabled: true, region: 'na', rate: 0 });
      await launchGame('tunedGame');
      recorder.start({ startedAt: new Date(), game: 'x' });
      await waitUntil(() => calls.includes('tunedGame:activate:Game tunedGame'));
      expect(calls).to.include('tunedGame:values:{"region":"na","rate":2}');

      setEntry('tunedGame', { enabled: true, region: 'eu', rate: 5 });
      expect(calls).to.include('tunedGame:changed:{"region":"eu","rate":5}');
      setEntry('tunedGame', { enabled: true, region: 'eu', rate: 5, unrelated: true });
      expect(calls.filter((call) => call.startsWith('tunedGame:changed'))).to.have.length(1);
    });

    it('fails an integration whose settings the page cannot render, saying why in its health', async () => {
      await writeFixture(plugins, 'odd', {
        key: 'oddGame',
        settings: { type: 'object', properties: { nested: { type: 'object', default: {} } } },
      });
      await startHost();
      await waitUntil(() => health('oddGame').status === 'failed');
      expect(health('oddGame').message).to.equal(
        'could not load fixture-odd: its settings cannot be shown in the settings page: "nested" is not a boolean, string, number, ' +
          'integer, string enum or array of strings ({"type":"object","default":{}})',
      );
      expect(state.current.integrationSettings).to.deep.equal({});
    });
  });

  describe('failures a plugin author can act on', () => {
    const failuresOf = (key: string) => logged.filter((record) => record.message === 'integration failed' && record.fields?.key === key);

    it('names the file and line of a throwing activate() in health and logs the error with its stack', async () => {
      await writeFixture(plugins, 'thrower', { key: 'throwerGame', behaviour: { activate: 'throw' } });
      await startHost();
      await launchGame('throwerGame');
      recorder.start({ startedAt: new Date(), game: 'x' });
      await waitUntil(() => health('throwerGame').status === 'failed');
      expect(health('throwerGame').message).to.match(/^activate\(\) failed: activate exploded \(at index\.js:\d+\)$/);
      const error = failuresOf('throwerGame')[0]!.fields!.error as { message: string; stack: string };
      expect(error.message).to.equal('activate exploded');
      expect(error.stack).to.match(/activate exploded\n\s+at run \(file:\/\/.*index\.js:\d+:\d+\)/);
    });

    it('fails a package that does not load once, naming the file and line or the missing module, and tries again only when switched off and on', async () => {
      await writeRawPackage(plugins, 'syntax', 'syntaxGame', {
        'dist/index.js': 'export default class {\n  activate() {}\n  deactivate() {} = 1\n}\n',
      });
      await writeRawPackage(plugins, 'missing', 'missingGame', {
        'dist/index.js': "import pad from 'left-pad-not-installed';\nexport default pad;\n",
      });
      await writeRawPackage(plugins, 'nodefault', 'noDefaultGame', { 'dist/index.js': 'export class Integration {}\n' });
      await startHost();
      await new Promise((resolve) => setTimeout(resolve, 150)); // several restart delays (20 ms)
      await host.settled();
      expect(health('syntaxGame').message).to.match(/^could not load raw-syntax: Unexpected token '=' \(at dist\/index\.js:3\)$/);
      expect(health('missingGame').message).to.equal(
        "could not load raw-missing: Cannot find package 'left-pad-not-installed' imported from dist/index.js",
      );
      expect(health('noDefaultGame').message).to.equal(
        'could not load raw-nodefault: dist/index.js has no default export class implementing GameIntegration',
      );
      for (const key of ['syntaxGame', 'missingGame', 'noDefaultGame']) expect(failuresOf(key), key).to.have.length(1);
      expect(logged.filter((record) => record.message === 'restarting integration')).to.deep.equal([]);

      switchIntegration('syntaxGame', false);
      await host.settled();
      switchIntegration('syntaxGame', true);
      await host.settled();
      expect(failuresOf('syntaxGame')).to.have.length(2);
    });

    it('names the line of a constructor that throws, and restarts it like a hook', async () => {
      await writeRawPackage(plugins, 'ctor', 'ctorGame', {
        'dist/index.js':
          "import { injectable } from 'tsyringe';\nclass Broken {\n  constructor() {\n    throw new Error('no config');\n  }\n  activate() {}\n  deactivate() {}\n}\nexport default injectable()(Broken) ?? Broken;\n",
      });
      await startHost();
      expect(health('ctorGame').message).to.equal('the constructor of raw-ctor failed: no config (at dist/index.js:4)');
      await waitUntil(() => failuresOf('ctorGame').length === 4);
    });

    it('says that a hanging activate() is running until its deadline, then that it failed', async () => {
      await writeFixture(plugins, 'slow', { key: 'slowGame', behaviour: { activate: 'hang' } });
      await startHost(400);
      await launchGame('slowGame');
      recorder.start({ startedAt: new Date(), game: 'x' });
      await waitUntil(() => calls.includes('slowGame:activate:Game slowGame'));
      expect(health('slowGame')).to.deep.include({
        status: 'idle',
        message: 'Starting: activate() has not finished yet (deadline 400 ms)',
      });
      await waitUntil(() => health('slowGame').status === 'failed');
      expect(health('slowGame').message).to.equal('activate() failed: slowGame.activate() did not finish within 400 ms');
    });

    it('logs the manifest warnings of a package it loads, once, as a warning', async () => {
      await writeFixture(plugins, 'typo', {
        key: 'typoGame',
        manifest: {
          apiVersion: 1,
          integration: {
            key: 'typoGame',
            displayName: 'T',
            events: ['Kill'],
            games: [{ name: 'T', executables: ['t'] }],
            feeds: [],
            activaton: 'game',
          },
        },
      });
      await startHost();
      expect(
        logged.filter((record) => record.message === 'integration manifest warnings').map((record) => [record.level, record.fields]),
      ).to.deep.equal([
        [
          'warn',
          { path: path.join(plugins, 'typo'), warnings: ['unknown field keyframe.integration.activaton: did you mean `activation`?'] },
        ],
      ]);
    });
  });
});
