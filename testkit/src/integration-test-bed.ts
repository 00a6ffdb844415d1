// Unit tests of an integration class: every SDK service it can ask for, as a recording stand-in, and
// the integration resolved the way the host does it (a child container with the SDK tokens). Feeds
// hand inputs to the integration only when the test delivers them; nothing listens or reads files.
// As under the host, inputs reach the integration only between the start of activate() and the start
// of deactivate() (the host's GatedFeeds). The clock, feeds and recorder are core's stand-ins, the same
// the tape player runs integrations with.
import {
  Bookmarks,
  Clock,
  DiskGameFiles,
  Feeds,
  GameFiles,
  GamePaths,
  Health,
  IntegrationSettings,
  Logger,
  Recorder,
  type BookmarkRequest,
  type BookmarksService,
  type DataExpectation,
  type FeedsService,
  type GamePathsService,
  type HealthReporter,
  type PluginLogger,
} from '@keyframe/core';
import { GatedFeeds, ManualClock, ScriptedFeeds, ScriptedRecorder, ScriptedSettings, SilenceWatch } from '@keyframe/core/tapes';
import os from 'node:os';
import path from 'node:path';
import { container, type InjectionToken } from 'tsyringe';

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
  /** `watch`: times each expectation as the host does (the test bed's silence watch). */
  constructor(private readonly watch: (expectation: DataExpectation) => void = () => undefined) {}
  degraded(reason: string | undefined): void {
    this.degradations.push(reason);
  }
  expectData(expectation: DataExpectation): void {
    this.expectations.push(expectation);
    this.watch(expectation);
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
  debug(message: string, fields?: Record<string, unknown>): void {
    this.log('debug', message, fields);
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.log('info', message, fields);
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.log('warn', message, fields);
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.log('error', message, fields);
  }
  /** Warnings and errors: what a test of good input expects none of. */
  get problems(): LoggedLine[] {
    return this.lines.filter((line) => line.level === 'warn' || line.level === 'error');
  }
  private log(level: LoggedLine['level'], message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level, message, ...(fields ? { fields } : {}) });
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

/** Every SDK service as a stand-in; `resolve` builds the integration from them. */
export class IntegrationTestBed {
  readonly feeds = new ScriptedFeeds();
  readonly bookmarks = new RecordedBookmarks();
  /** Times what the integration expects with `health.expectData`, as the host does. */
  readonly #silence = new SilenceWatch(
    (reason) => this.health.degraded(reason),
    () => this.health.current,
  );
  readonly health = new RecordedHealth((expectation) => this.#silence.expect(expectation));
  readonly logger = new RecordedLogger();
  readonly clock = new ManualClock();
  readonly recorder = new ScriptedRecorder();
  readonly gamePaths: TestGamePaths;
  /** The real files (under `root` when the integration goes by its GamePaths). */
  readonly gameFiles = new DiskGameFiles();
  /** `settings.change(values)` is the user changing the integration's own settings. */
  readonly settings: ScriptedSettings;

  /**
   * `port`: what the host hands over from the manifest's `httpPush:<port>` feed; `settings`: the user's values
   * of the integration's own settings (the others are the defaults its class declares).
   */
  constructor(options: { key: string; root?: string; port?: number; settings?: Readonly<Record<string, unknown>> }) {
    this.gamePaths = new TestGamePaths(options.root);
    this.settings = new ScriptedSettings(options.key, {
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.settings ? { values: options.settings } : {}),
    });
  }

  /** The integration as the host builds it: from a child container holding these services under the SDK tokens. */
  resolve<T>(integration: InjectionToken<T>): T {
    this.settings.declare((integration as { settings?: unknown }).settings);
    return this.drive((feeds) => {
      const child = container.createChildContainer();
      child.register(Feeds, { useValue: feeds });
      child.register(Bookmarks, { useValue: this.bookmarks });
      child.register(Health, { useValue: this.health });
      child.register(Logger, { useValue: this.logger });
      child.register(Clock, { useValue: this.clock });
      child.register(Recorder, { useValue: this.recorder });
      child.register(GamePaths, { useValue: this.gamePaths });
      child.register(GameFiles, { useValue: this.gameFiles });
      child.register(IntegrationSettings, { useValue: this.settings });
      return child.resolve(integration);
    });
  }

  /**
   * An integration built by hand (e.g. a test's subclass, which tsyringe cannot resolve) from the feeds
   * handed to `build`, driven as the host drives it: feeds gated, silence timed.
   */
  drive<T>(build: (feeds: FeedsService) => T): T {
    // Without declared kinds every kind is allowed: the test bed does not know the manifest.
    const feeds = new GatedFeeds(this.feeds, { key: this.settings.key, heard: () => this.#silence.heard() });
    return drivenLikeTheHost(build(feeds), feeds, this.#silence);
  }
}

/** The instance, with activate and deactivate opening and shutting the feeds' gate and timing silence as the host does. */
function drivenLikeTheHost<T>(instance: T, feeds: GatedFeeds, silence: SilenceWatch): T {
  const integration = instance as unknown as { activate?: (...args: unknown[]) => Promise<void>; deactivate?: () => Promise<void> };
  const { activate, deactivate } = integration;
  if (!activate || !deactivate) return instance;
  integration.activate = async (...args) => {
    feeds.open();
    silence.start();
    await activate.apply(instance, args);
  };
  integration.deactivate = async () => {
    await feeds.shut();
    silence.stop();
    await deactivate.apply(instance);
  };
  return instance;
}
