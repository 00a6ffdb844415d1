// One integration's life, the same under the service, `keyframe tape play` and `keyframe tape record`:
// enable → activate → deactivate → disable, one hook at a time (a queue per integration), each under a
// deadline. Feed delivery stops before deactivate() begins, silence is timed for `health.expectData`,
// bookmarks no recording covers are logged, and what the manifest does not declare (bookmark types,
// feed kinds) is refused and said in health. A failed hook tears the instance down; where the caller
// gives a back-off, the integration is restarted (not when its package does not load: the same files fail
// the same way). Failures name the first place of their stack inside the plugin's package.
import type { ClosableFeeds, FeedObserver } from '../sdk/feed-observer.js';
import { DiskGameFiles, type GameFiles as GameFilesService } from '../sdk/game-files.js';
import type {
  Bookmarks as BookmarksService,
  Clock as ClockService,
  DetectedGame,
  GameIntegration,
  GamePaths as GamePathsService,
  HealthReporter,
  PluginLogger,
  RecorderView,
} from '../sdk/game-integration.js';
import { CheckedBookmarks } from './checked-bookmarks.js';
import { GatedFeeds } from './gated-feeds.js';
import { withDeadline } from './hook-deadline.js';
import { declaredFeedKinds, declaredPushPort, type IntegrationManifest } from './manifest.js';
import { instantiateIntegration } from './plugin-container.js';
import { declaredSettingsSchema, type IntegrationClass } from './plugin-loader.js';
import { PluginSettings } from './plugin-settings.js';
import type { IntegrationSettingsSchema } from '../protocol/index.js';
import { describePluginFailure } from './plugin-failure.js';
import { SilenceWatch } from './silence-watch.js';

export type LifecyclePhase = 'disabled' | 'enabled' | 'active' | 'failed';

/** Where the integration should be now: enabled or not, and active for which game (none: not active). */
export interface DesiredState {
  enabled: boolean;
  activeFor?: DetectedGame;
}

/** What one instance's feeds are made with: its own logger and health, and the observer of every input. */
export interface FeedContext {
  logger: PluginLogger;
  health: HealthReporter;
  observe: FeedObserver;
}

export interface RestartPolicy {
  /** Restarts after this many failures in a row stop. */
  max: number;
  /** Back-off before restart n (1-based). */
  delayMs(attempt: number): number;
}

export interface IntegrationLifecycleOptions {
  key: string;
  /** For messages (`could not load <package>`); default the key. */
  packageName?: string;
  /** The package's folder: a failure names the first place of its stack inside it (`dist/index.js:42`). */
  packageRoot?: string;
  /** What the package declares (events, feeds, port); without one (a bare class replayed by a tool) nothing is refused. */
  manifest?: IntegrationManifest;
  /** Asked on every move: where the integration should be. */
  desired(): DesiredState;
  /** The class to instantiate; undefined when it may not run now (the caller says why, e.g. an approval is missing). */
  load(): Promise<IntegrationClass | undefined>;
  /** Fresh feeds for each instance. */
  feeds(context: FeedContext): ClosableFeeds;
  bookmarks: BookmarksService;
  recorder: RecorderView;
  /** Whether the user has it switched on (`IntegrationSettings.enabled`). */
  enabled(): boolean;
  /** The user's entry `gameIntegrations.<key>`, whose declared fields become `IntegrationSettings.values`; none: the defaults. */
  storedSettings?(): Readonly<Record<string, unknown>> | undefined;
  /** The class loaded and declares these settings (undefined: none). */
  settingsDeclared?(schema: IntegrationSettingsSchema | undefined): void;
  clock: ClockService;
  gamePaths: GamePathsService;
  /** What the integration reads game files with; default the disk (a tape records or replays them). */
  gameFiles?: GameFilesService;
  /** The plugin's own log. */
  pluginLogger: PluginLogger;
  /** The lifecycle's log (hooks run, failures, dropped bookmarks). */
  logger: PluginLogger;
  /** Shows the user a message to act on; each title once per integration. */
  notify(title: string, description: string): void;
  /** Each hook's deadline; none when undefined. */
  hookDeadlineMs?: number;
  restart?: RestartPolicy;
  /** False where wall-clock silence means nothing (a tape replays in milliseconds): `expectData` is not timed. */
  watchSilence?: boolean;
  /** Health changed (phase, degraded reason, last event). */
  changed(): void;
}

interface Instance {
  integration: GameIntegration;
  settings: PluginSettings;
  feeds: GatedFeeds;
  silence: SilenceWatch;
}

export class IntegrationLifecycle {
  #phase: LifecyclePhase = 'disabled';
  #instance: Instance | undefined;
  #queue: Promise<void> = Promise.resolve();
  #failure: string | undefined;
  #failures = 0;
  #restartTimer: NodeJS.Timeout | undefined;
  #degradedReason: string | undefined;
  #lastEventAt: Date | undefined;
  #stopping = false;
  #runningHook: string | undefined;
  readonly #bookmarks: CheckedBookmarks;
  readonly #notified = new Set<string>();

  constructor(private readonly options: IntegrationLifecycleOptions) {
    this.#bookmarks = new CheckedBookmarks({
      key: options.key,
      ...(options.manifest ? { manifest: options.manifest } : {}),
      bookmarks: options.bookmarks,
      clock: options.clock,
      logger: options.logger,
      event: (at) => {
        this.#lastEventAt = at;
      },
      changed: () => this.options.changed(),
    });
  }

  get phase(): LifecyclePhase {
    return this.#phase;
  }

  /** Why the last hook failed, while failed. */
  get failure(): string | undefined {
    return this.#failure;
  }

  /** What the plugin (or its screen-text feed) last said is wrong; undefined when all is well. */
  get degradedReason(): string | undefined {
    return this.#degradedReason;
  }

  /** The hook under way (`activate`), while one runs: health should not claim to wait for anything else. */
  get runningHook(): string | undefined {
    return this.#runningHook;
  }

  get lastEventAt(): Date | undefined {
    return this.#lastEventAt;
  }

  /** What is wrong while it runs: the plugin's own degraded reason, or bookmark types it was refused. */
  get problem(): string | undefined {
    return this.#degradedReason ?? this.#bookmarks.problem;
  }

  /** The stored settings may have changed: the running instance's listeners hear of a changed value. */
  settingsChanged(): void {
    void this.#instance?.settings.refresh();
  }

  /** Queues a move towards `desired()`; resolves once that move has run. */
  reconcile(): Promise<void> {
    this.#queue = this.#queue.then(() => this.step());
    return this.#queue;
  }

  /** Resolves when every queued move has run. */
  settled(): Promise<void> {
    return this.#queue;
  }

  /** Deactivates (at shutdown); nothing is enabled or activated afterwards, and no restart is pending. */
  stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#restartTimer);
    return this.reconcile();
  }

  private async step(): Promise<void> {
    const desired = this.options.desired();
    // At shutdown integrations are deactivated, not disabled: disable() is the user switching one off.
    const game = this.#stopping ? undefined : desired.activeFor;
    if (!desired.enabled && this.#phase === 'failed') {
      // Switching a failed integration off clears its failures: switching it on again is a fresh start.
      clearTimeout(this.#restartTimer);
      this.#failures = 0;
      this.#failure = undefined;
      this.#phase = 'disabled';
    }
    if (this.#phase === 'failed') return this.options.changed();

    if (this.#phase === 'active' && !game) {
      await this.hook(
        'deactivate',
        async ({ integration, feeds, silence }) => {
          // Feeds stop first: no input reaches the plugin once its deactivate() has begun.
          await feeds.shut();
          silence.stop();
          await integration.deactivate();
        },
        'enabled',
      );
    }
    if (this.#phase === 'enabled' && !desired.enabled) {
      await this.hook(
        'disable',
        async ({ integration }) => {
          await integration.disable?.();
        },
        'disabled',
      );
      await this.discard();
    }
    if (this.#phase === 'disabled' && desired.enabled && !this.#stopping) {
      if (!this.#instance && !(await this.instantiate())) return this.options.changed();
      await this.hook(
        'enable',
        async ({ integration }) => {
          await integration.enable?.();
        },
        'enabled',
      );
    }
    if (this.#phase === 'enabled' && desired.enabled && game) {
      await this.hook(
        'activate',
        async ({ integration, feeds, silence }) => {
          feeds.open();
          silence.start();
          await integration.activate(game);
        },
        'active',
      );
    }
    this.options.changed();
  }

  /** Runs one hook under the deadline; on failure the instance is torn down and a restart scheduled. */
  private async hook(name: string, run: (instance: Instance) => Promise<void>, next: LifecyclePhase): Promise<void> {
    const instance = this.#instance;
    if (!instance) return;
    const { key, hookDeadlineMs } = this.options;
    this.#runningHook = name;
    this.options.changed();
    try {
      await (hookDeadlineMs === undefined ? run(instance) : withDeadline(`${key}.${name}`, hookDeadlineMs, () => run(instance)));
      this.#runningHook = undefined;
      this.#phase = next;
      this.options.logger.info(`${name}d integration`, { key });
    } catch (error) {
      this.#runningHook = undefined;
      await this.fail(`${name}() failed: ${this.describe(error)}`, error);
    }
  }

  private async instantiate(): Promise<boolean> {
    const { key, manifest, packageName = key } = this.options;
    let integrationClass: IntegrationClass | undefined;
    let schema: IntegrationSettingsSchema | undefined;
    try {
      integrationClass = await this.options.load();
      schema = integrationClass && declaredSettingsSchema(integrationClass);
    } catch (error) {
      // No restart: Node keeps a module that failed for the life of the process, so the same import fails the same way.
      await this.fail(`could not load ${packageName}: ${this.describe(error)}`, error, { restart: false });
      return false;
    }
    if (!integrationClass) return false;
    try {
      const silence = new SilenceWatch(
        (reason) => this.degraded(reason),
        () => this.#degradedReason,
      );
      const health = this.healthReporter(silence);
      const observe: FeedObserver = (entry) => {
        this.#lastEventAt = entry.at;
      };
      const feeds = new GatedFeeds(this.options.feeds({ logger: this.options.pluginLogger, health, observe }), {
        key,
        ...(manifest ? { declaredKinds: declaredFeedKinds(manifest) } : {}),
        heard: () => silence.heard(),
      });
      this.options.settingsDeclared?.(schema);
      const port = manifest && declaredPushPort(manifest);
      const settings = new PluginSettings({
        key,
        ...(port === undefined ? {} : { port }),
        enabled: this.options.enabled,
        schema: () => schema,
        stored: () => this.options.storedSettings?.(),
        logger: this.options.logger,
      });
      const { instance } = instantiateIntegration(integrationClass, {
        bookmarks: { add: this.#bookmarks.add }, // the SDK's Bookmarks and nothing more of the check
        recorder: this.options.recorder,
        settings,
        feeds,
        clock: this.options.clock,
        logger: this.options.pluginLogger,
        gamePaths: this.options.gamePaths,
        gameFiles: this.options.gameFiles ?? new DiskGameFiles(),
        health,
      });
      this.#instance = { integration: instance, settings, feeds, silence };
      return true;
    } catch (error) {
      await this.fail(`the constructor of ${packageName} failed: ${this.describe(error)}`, error);
      return false;
    }
  }

  private describe(error: unknown): string {
    return describePluginFailure(error, this.options.packageRoot);
  }

  /** `restart: false` for what cannot heal by itself (a package that does not load). */
  private async fail(message: string, error: unknown, { restart: mayRestart = true } = {}): Promise<void> {
    const { key, restart } = this.options;
    this.#phase = 'failed';
    this.#failure = message;
    this.#failures += 1;
    this.options.logger.error('integration failed', { key, message, failures: this.#failures, error });
    await this.discard();
    if (this.#stopping || !restart || !mayRestart || this.#failures > restart.max) return;
    this.#restartTimer = setTimeout(() => {
      this.#queue = this.#queue.then(() => {
        if (this.#phase !== 'failed' || this.#stopping) return;
        this.options.logger.info('restarting integration', { key, attempt: this.#failures });
        this.#phase = 'disabled';
        return this.step();
      });
    }, restart.delayMs(this.#failures));
    this.#restartTimer.unref();
  }

  /** Drops the instance; its feeds are closed even if the plugin left them open. */
  private async discard(): Promise<void> {
    const instance = this.#instance;
    this.#instance = undefined;
    this.#degradedReason = undefined;
    instance?.silence.stop();
    await instance?.feeds
      .closeAll()
      .catch((error: unknown) => this.options.logger.warn('closing feeds failed', { key: this.options.key, error }));
  }

  private healthReporter(silence: SilenceWatch): HealthReporter {
    return {
      degraded: (reason) => this.degraded(reason),
      expectData: (expectation) => {
        if (this.options.watchSilence !== false) silence.expect(expectation);
      },
      notify: (title, description) => {
        if (this.#notified.has(title)) return;
        this.#notified.add(title);
        this.options.notify(title, description);
      },
    };
  }

  private degraded(reason: string | undefined): void {
    if (this.#degradedReason === reason) return;
    this.#degradedReason = reason;
    this.options.logger.info(reason ? 'integration degraded' : 'integration recovered', { key: this.options.key, reason });
    this.options.changed();
  }
}
