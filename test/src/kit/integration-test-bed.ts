// Unit tests of an integration class: every SDK service it can ask for, as a recording stand-in, and
// the integration resolved the way the host does it (a child container with the SDK tokens). Feeds
// hand inputs to the integration only when the test delivers them; nothing listens or reads files.
// As under the host, inputs reach the integration only between the start of activate() and the start
// of deactivate() (the host's GatedFeeds).
import {
  Bookmarks, Clock, Feeds, GamePaths, Health, IntegrationSettings, Logger, Recorder,
  type BookmarkRequest, type BookmarksService, type DataExpectation, type ClockService, type Feed, type FeedInputs, type FeedKind, type FeedsService,
  type GamePathsService, type HealthReporter, type HttpPushOptions, type IntegrationSettingsService, type PluginLogger, type PollOptions,
  type RecorderView, type RecordingInfo, type ScreenTextOptions, type TailOptions, type WatchFolderOptions,
} from '@keyframe/core';
import { GatedFeeds } from '@keyframe/core/tapes';
import os from 'node:os';
import path from 'node:path';
import { container, type InjectionToken } from 'tsyringe';

/** A feed the test drives: `deliver` calls the integration's handler as the host does, one input at a time. */
export class ScriptedFeed<T> implements Feed<T> {
  closed = false;
  private handler: ((input: T) => void | Promise<void>) | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly kind: FeedKind, readonly id: string, readonly options: unknown, readonly ready: Promise<void>) {}

  onInput(handler: (input: T) => void | Promise<void>): void {
    this.handler = handler;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Resolves once the handler has finished with this input (and every input delivered before it). */
  deliver(input: T): Promise<void> {
    const handler = this.handler;
    if (!handler) return Promise.reject(new Error(`the ${this.kind} feed "${this.id}" has no handler yet`));
    if (this.closed) return Promise.reject(new Error(`the ${this.kind} feed "${this.id}" is closed`));
    this.queue = this.queue.then(() => handler(input));
    return this.queue;
  }
}

export const SCRIPTED_PUSH_TOKEN = 'ScriptedPushToken0123';

/** Opens scripted feeds and remembers them, newest last. */
export class ScriptedFeeds implements FeedsService {
  readonly opened: ScriptedFeed<unknown>[] = [];
  /** What `ready` of the next opened feed settles to (a rejection: the port is in use). */
  ready: Promise<void> = Promise.resolve();

  httpPush(id: string, options: HttpPushOptions): Feed<FeedInputs['httpPush']> {
    return this.open('httpPush', id, options);
  }
  /** The token integrations write into game configs here; a scripted push is delivered whatever it carries. */
  async pushToken(): Promise<string> {
    return SCRIPTED_PUSH_TOKEN;
  }
  poll(id: string, options: PollOptions): Feed<FeedInputs['poll']> {
    return this.open('poll', id, options);
  }
  tail(id: string, options: TailOptions): Feed<FeedInputs['tail']> {
    return this.open('tail', id, options);
  }
  watchFolder(id: string, options: WatchFolderOptions): Feed<FeedInputs['watchFolder']> {
    return this.open('watchFolder', id, options);
  }
  /** Delivers what the test says was read (`{text, confidence, frameTimeMs}`); no frames, no OCR. */
  screenText(id: string, options: ScreenTextOptions): Feed<FeedInputs['screenText']> {
    return this.open('screenText', id, options);
  }

  /**
   * Called when the integration deactivates. The feeds stay open, so that a test can show that what it
   * delivers afterwards is not handed over.
   */
  async closeAll(): Promise<void> {}

  /** The newest open feed of that kind (and id); throws when there is none. */
  latest<K extends FeedKind>(kind: K, id?: string): ScriptedFeed<FeedInputs[K]> {
    const feed = this.opened.findLast((entry) => entry.kind === kind && !entry.closed && (id === undefined || entry.id === id));
    if (!feed) throw new Error(`no open ${kind} feed${id === undefined ? '' : ` "${id}"`}; opened: ${this.opened.map((entry) => `${entry.kind}:${entry.id}`).join(', ') || 'none'}`);
    return feed as ScriptedFeed<FeedInputs[K]>;
  }

  private open<K extends FeedKind>(kind: K, id: string, options: unknown): Feed<FeedInputs[K]> {
    const feed = new ScriptedFeed<FeedInputs[K]>(kind, id, options, this.ready);
    this.opened.push(feed as ScriptedFeed<unknown>);
    return feed;
  }
}

export class RecordedBookmarks implements BookmarksService {
  readonly added: BookmarkRequest[] = [];
  /** What `add` answers: false as when no recording covers the time. */
  covered = true;
  async add(request: BookmarkRequest): Promise<boolean> {
    this.added.push(request);
    return this.covered;
  }
}

export class RecordedHealth implements HealthReporter {
  /** Every `degraded` call, `undefined` for back to normal. */
  readonly degradations: (string | undefined)[] = [];
  readonly notifications: { title: string; description: string }[] = [];
  /** What the integration said it expects (`expectData`), newest last. */
  readonly expectations: DataExpectation[] = [];
  degraded(reason: string | undefined): void {
    this.degradations.push(reason);
  }
  expectData(expectation: DataExpectation): void {
    this.expectations.push(expectation);
  }
  notify(title: string, description: string): void {
    this.notifications.push({ title, description });
  }
  /** The reason in force: the last `degraded` call's. */
  get current(): string | undefined {
    return this.degradations.at(-1);
  }
  /** `degradations` without repeats of the one before: what a person watching the health entry saw change. */
  get changes(): (string | undefined)[] {
    return this.degradations.filter((reason, index, all) => index === 0 || reason !== all[index - 1]);
  }
}

export interface LoggedLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

export class RecordedLogger implements PluginLogger {
  readonly lines: LoggedLine[] = [];
  debug(message: string, fields?: Record<string, unknown>): void { this.log('debug', message, fields); }
  info(message: string, fields?: Record<string, unknown>): void { this.log('info', message, fields); }
  warn(message: string, fields?: Record<string, unknown>): void { this.log('warn', message, fields); }
  error(message: string, fields?: Record<string, unknown>): void { this.log('error', message, fields); }
  /** Warnings and errors: what a test of good input expects none of. */
  get problems(): LoggedLine[] {
    return this.lines.filter((line) => line.level === 'warn' || line.level === 'error');
  }
  private log(level: LoggedLine['level'], message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level, message, ...(fields ? { fields } : {}) });
  }
}

/** A clock the test sets; starts at 2026-01-01T12:00:00Z. */
export class ManualClock implements ClockService {
  private time = Date.UTC(2026, 0, 1, 12);
  now(): Date {
    return new Date(this.time);
  }
  set(at: Date): void {
    this.time = at.getTime();
  }
  advance(milliseconds: number): void {
    this.time += milliseconds;
  }
}

/** Game folders inside `root` (a temp folder), and the Steam libraries the test lists. */
export class TestGamePaths implements GamePathsService {
  steamLibraryFolders: string[] = [];
  constructor(readonly root: string = os.tmpdir()) {}
  async steamLibraries(): Promise<string[]> {
    return this.steamLibraryFolders;
  }
  roamingAppData(): string {
    return path.join(this.root, 'roaming');
  }
  localAppData(): string {
    return path.join(this.root, 'local');
  }
  home(): string {
    return path.join(this.root, 'home');
  }
}

/** A recorder the test starts and stops; listeners are told as the host's are. */
export class ScriptedRecorder implements RecorderView {
  current: RecordingInfo | undefined;
  private readonly started = new Set<(recording: RecordingInfo) => void>();
  private readonly stopped = new Set<(recording: RecordingInfo) => void>();
  onStarted(listener: (recording: RecordingInfo) => void): () => void {
    this.started.add(listener);
    return () => this.started.delete(listener);
  }
  onStopped(listener: (recording: RecordingInfo) => void): () => void {
    this.stopped.add(listener);
    return () => this.stopped.delete(listener);
  }
  start(recording: RecordingInfo): void {
    this.current = recording;
    for (const listener of this.started) listener(recording);
  }
  stop(): void {
    const recording = this.current;
    this.current = undefined;
    if (recording) for (const listener of this.stopped) listener(recording);
  }
}

/** Every SDK service as a stand-in; `resolve` builds the integration from them. */
export class IntegrationTestBed {
  readonly feeds = new ScriptedFeeds();
  readonly bookmarks = new RecordedBookmarks();
  readonly health = new RecordedHealth();
  readonly logger = new RecordedLogger();
  readonly clock = new ManualClock();
  readonly recorder = new ScriptedRecorder();
  readonly gamePaths: TestGamePaths;
  readonly settings: IntegrationSettingsService;

  /** `port`: what the host hands over from the manifest's `httpPush:<port>` feed. */
  constructor(options: { key: string; root?: string; port?: number }) {
    this.gamePaths = new TestGamePaths(options.root);
    this.settings = { key: options.key, enabled: true, ...(options.port === undefined ? {} : { port: options.port }) };
  }

  /** The integration as the host builds it: from a child container holding these services under the SDK tokens. */
  resolve<T>(integration: InjectionToken<T>): T {
    const child = container.createChildContainer();
    // Every kind is allowed here: the test bed does not know the manifest.
    const feeds = new GatedFeeds(this.feeds, {
      key: this.settings.key, declaredKinds: new Set(['httpPush', 'poll', 'tail', 'watchFolder', 'screenText']), heard: () => undefined,
    });
    child.register(Feeds, { useValue: feeds });
    child.register(Bookmarks, { useValue: this.bookmarks });
    child.register(Health, { useValue: this.health });
    child.register(Logger, { useValue: this.logger });
    child.register(Clock, { useValue: this.clock });
    child.register(Recorder, { useValue: this.recorder });
    child.register(GamePaths, { useValue: this.gamePaths });
    child.register(IntegrationSettings, { useValue: this.settings });
    return drivenLikeTheHost(child.resolve(integration), feeds);
  }
}

/** The instance, with activate and deactivate opening and shutting the feeds' gate as the host does. */
function drivenLikeTheHost<T>(instance: T, feeds: GatedFeeds): T {
  const integration = instance as unknown as { activate?: (...args: unknown[]) => Promise<void>; deactivate?: () => Promise<void> };
  const { activate, deactivate } = integration;
  if (!activate || !deactivate) return instance;
  integration.activate = async (...args) => {
    feeds.open();
    await activate.apply(instance, args);
  };
  integration.deactivate = async () => {
    await feeds.shut();
    await deactivate.apply(instance);
  };
  return instance;
}
