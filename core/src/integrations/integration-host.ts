// Runs the discovered integrations: enable/disable from settings, activate while one of their games
// runs during a recording (or, for those whose manifest says `activation: "game"`, while it runs at
// all), each hook under a deadline, failures contained and restarted with
// back-off, health published in `State.integrations`. Third-party packages run only once the user
// approved their exact contents.
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../protocol/refusal.js';
import type { ClosableFeeds, FeedObserver } from '../sdk/feed-observer.js';
import { formatLocalDateTime, toWirePath, type IntegrationApproval, type IntegrationHealth } from '../protocol/index.js';
import { GameDetector, type RunningGame } from '../games/game-detector.js';
import { Notifier } from '../state/notifier.js';
import { SettingsStore } from '../settings/settings-store.js';
import { StateStore } from '../state/state-store.js';
import { Logger } from '../support/logger.js';
import type {
  Bookmarks as BookmarksService, DetectedGame, GameIntegration, GamePaths as GamePathsService, HealthReporter, PluginLogger, RecorderView,
} from '../sdk/game-integration.js';
import { GatedFeeds } from './gated-feeds.js';
import { withDeadline } from './hook-deadline.js';
import { SilenceWatch } from './silence-watch.js';
import { hashPackageContents } from './package-contents.js';
import type { PluginApprovals } from './plugin-approvals.js';
import { instantiateIntegration, systemClock } from './plugin-container.js';
import { declaredFeedKinds, declaredPushPort } from './manifest.js';
import { discoverPlugins, type DiscoveredPlugin, type RefusedPlugin } from './plugin-discovery.js';
import type { PluginFolder } from './plugin-folders.js';
import { loadIntegrationClass } from './plugin-loader.js';

export const MAX_RESTARTS = 3;

/** What the host needs from the rest of the service; the composition root provides it. */
export interface IntegrationHostEnvironment {
  searchFolders: readonly PluginFolder[];
  /** The user's approvals of third-party packages. */
  approvals: PluginApprovals;
  recorder: RecorderView;
  /** Bookmarks on behalf of one integration. */
  bookmarksFor(key: string): BookmarksService;
  /** `health` is the integration's own: a feed that cannot read (screenText) says so there. */
  feedsFor(key: string, logger: PluginLogger, observe: FeedObserver, health: HealthReporter): ClosableFeeds;
  gamePaths: GamePathsService;
  hookDeadlineMs: number;
  /** Back-off before restart n (1-based). */
  restartDelayMs(attempt: number): number;
}
export const INTEGRATION_HOST_ENVIRONMENT = Symbol('IntegrationHostEnvironment');

type Phase = 'disabled' | 'enabled' | 'active' | 'failed';

interface Running {
  instance: GameIntegration;
  feeds: GatedFeeds;
}

interface Integration {
  plugin: DiscoveredPlugin;
  /** Third-party packages only: what the user sees and approves. */
  approval?: IntegrationApproval;
  phase: Phase;
  running?: Running;
  degradedReason?: string;
  /** Bookmark types the plugin tried to add without declaring them in its manifest (refused). */
  undeclaredEvents: Set<string>;
  failure?: string;
  failures: number;
  restartTimer?: NodeJS.Timeout;
  lastEventAt?: Date;
  /** Times the silence the integration declared with `health.expectData`. */
  silence?: SilenceWatch;
  /** Hooks of one integration never overlap: every transition queues here. */
  queue: Promise<void>;
  notified: Set<string>;
}

@injectable()
export class IntegrationHost {
  private readonly integrations = new Map<string, Integration>();
  private refused: RefusedPlugin[] = [];
  private readonly logger: Logger;
  private readonly unsubscribe: (() => void)[] = [];
  private stopping = false;

  constructor(
    @inject(INTEGRATION_HOST_ENVIRONMENT) private readonly environment: IntegrationHostEnvironment,
    private readonly settings: SettingsStore,
    private readonly state: StateStore,
    private readonly games: GameDetector,
    private readonly notifier: Notifier,
    logger: Logger,
  ) {
    this.logger = logger.child('integrations');
  }

  get keys(): string[] {
    return [...this.integrations.keys()];
  }

  get refusedPlugins(): readonly RefusedPlugin[] {
    return this.refused;
  }

  /** Whether an integration that reads on-screen text is switched on and one of its games runs. */
  get readsScreenText(): boolean {
    return [...this.integrations.values()].some((integration) => {
      const { feeds } = integration.plugin.manifest.integration;
      return this.wantsEnabled(integration) && integration.phase !== 'failed' && feeds.some((feed) => /^screenText(:|$)/.test(feed))
        && this.runningGameOf(integration) !== undefined;
    });
  }

  /** Discovers plugins, adds their settings keys, enables the enabled ones, and starts following changes. */
  async start(): Promise<void> {
    const damaged = await this.environment.approvals.load();
    if (damaged) this.logger.warn('integration approvals not read', { reason: damaged });
    const discovery = await discoverPlugins(this.environment.searchFolders);
    this.refused = discovery.refused;
    for (const refusal of discovery.refused) this.logger.warn('integration package refused', { ...refusal });
    for (const plugin of discovery.plugins) {
      const integration: Integration = { plugin, approval: this.approvalOf(plugin), phase: 'disabled', failures: 0, queue: Promise.resolve(), notified: new Set(), undeclaredEvents: new Set() };
      this.integrations.set(plugin.manifest.integration.key, integration);
      if (integration.approval?.status === 'pending') this.logger.warn('integration waits for the user\'s approval', { ...integration.approval });
    }
    this.logger.info('integrations discovered', { keys: this.keys, refused: discovery.refused.length });
    this.addSettingsKeys();
    // A package the user has not approved adds no games either: it could start recordings.
    this.games.addCatalog(() => [...this.integrations.values()].filter((integration) => !this.isPending(integration))
      .flatMap((integration) => integration.plugin.manifest.integration.games));

    this.unsubscribe.push(
      this.settings.onChange(() => this.reconcileAll()),
      this.games.onChange(() => this.reconcileAll()),
      this.environment.recorder.onStarted(() => this.reconcileAll()),
      this.environment.recorder.onStopped(() => this.reconcileAll()),
    );
    this.reconcileAll();
    await this.settled();
  }

  /** Resolves when every queued transition has run. */
  async settled(): Promise<void> {
    await Promise.all([...this.integrations.values()].map((integration) => integration.queue));
  }

  /** Deactivates every active integration (at shutdown); nothing is re-activated afterwards. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    for (const integration of this.integrations.values()) clearTimeout(integration.restartTimer);
    this.reconcileAll();
    await this.settled();
  }

  /** Lets a pending third-party integration run, if `hash` is that of its package on disk now. */
  async approve(key: string, hash: string): Promise<void> {
    const integration = this.thirdParty(key);
    const approval = integration.approval!;
    const current = await hashPackageContents(integration.plugin.packageRoot);
    if ('problem' in current) throw new CommandError('Failed', `${approval.packageName} cannot be approved: ${current.problem}.`);
    if (current.hash !== approval.hash) {
      integration.approval = { ...approval, status: 'pending', hash: current.hash };
      this.publish();
    }
    if (current.hash !== hash) {
      throw new CommandError('InvalidParameters', `${approval.packageName} at ${approval.path} is not the package that was shown for approval `
        + `(its contents hash ${current.hash.slice(0, 12)}…, not ${hash.slice(0, 12)}…): look at it again before approving it.`);
    }
    await this.environment.approvals.approve(key, approval.path, hash);
    integration.approval = { ...approval, status: 'approved', hash };
    this.logger.info('integration approved', { ...integration.approval });
    this.addSettingsKeys();
    this.reconcileAll();
    await integration.queue;
  }

  /** Withdraws an approval: the integration stops and waits for approval again. */
  async revoke(key: string): Promise<void> {
    const integration = this.thirdParty(key);
    await this.environment.approvals.revoke(key);
    integration.approval = { ...integration.approval!, status: 'pending' };
    this.logger.info('integration approval revoked', { key, path: integration.approval.path });
    this.reconcileAll();
    await integration.queue;
  }

  private thirdParty(key: string): Integration {
    const integration = this.integrations.get(key);
    if (!integration) throw new CommandError('NotFound', `There is no integration "${key}": it may have been removed, or it was not loaded (see State.integrations).`);
    if (!integration.approval) throw new CommandError('NotAllowed', `${integration.plugin.manifest.integration.displayName} comes with Keyframe (or from a folder in KEYFRAME_PLUGIN_DIRS): it needs no approval.`);
    return integration;
  }

  private approvalOf(plugin: DiscoveredPlugin): IntegrationApproval | undefined {
    if (plugin.contentHash === undefined) return undefined;
    const path = toWirePath(plugin.packageRoot);
    const approved = this.environment.approvals.isApproved(plugin.manifest.integration.key, path, plugin.contentHash);
    return { status: approved ? 'approved' : 'pending', packageName: plugin.packageName, version: plugin.version, path, hash: plugin.contentHash };
  }

  private isPending(integration: Integration): boolean {
    return integration.approval?.status === 'pending';
  }

  /** Switched on in the settings, and approved where it has to be. */
  private wantsEnabled(integration: Integration): boolean {
    return !this.isPending(integration) && (this.settings.current.gameIntegrations[integration.plugin.manifest.integration.key]?.enabled ?? true);
  }

  health(key: string): IntegrationHealth | undefined {
    const integration = this.integrations.get(key);
    return integration && this.healthOf(integration);
  }

  private reconcileAll(): void {
    for (const integration of this.integrations.values()) {
      integration.queue = integration.queue.then(() => this.reconcile(integration));
    }
  }

  /** Moves one integration one or more steps towards where settings, games and the recorder say it should be. */
  private async reconcile(integration: Integration): Promise<void> {
    // At shutdown integrations are deactivated, not disabled: disable() is the user switching one off.
    const wantEnabled = this.wantsEnabled(integration);
    const game = wantEnabled && !this.stopping ? this.runningGameOf(integration) : undefined;
    const duringRecordingsOnly = integration.plugin.manifest.integration.activation !== 'game';
    const wantActive = game !== undefined && (!duringRecordingsOnly || this.environment.recorder.current !== undefined);

    if (!wantEnabled && integration.phase === 'failed') {
      // Switching a failed integration off clears its failures: switching it on again is a fresh start.
      clearTimeout(integration.restartTimer);
      integration.failures = 0;
      integration.failure = undefined;
      integration.phase = 'disabled';
    }
    if (integration.phase === 'failed') return this.publish();

    if (integration.phase === 'active' && !wantActive) await this.step(integration, 'deactivate', async (running) => {
      // Feeds stop first: no input reaches the plugin once its deactivate() has begun.
      await running.feeds.shut();
      integration.silence?.stop();
      await running.instance.deactivate();
    }, 'enabled');
    if (integration.phase === 'enabled' && !wantEnabled) {
      await this.step(integration, 'disable', async (running) => { await running.instance.disable?.(); }, 'disabled');
      await this.discard(integration);
    }
    if (integration.phase === 'disabled' && wantEnabled && !this.stopping) {
      if (!integration.running && !(await this.instantiate(integration))) return this.publish();
      await this.step(integration, 'enable', async (running) => { await running.instance.enable?.(); }, 'enabled');
    }
    if (integration.phase === 'enabled' && wantActive && game) {
      await this.step(integration, 'activate', async (running) => {
        running.feeds.open();
        integration.silence?.start();
        await running.instance.activate(game);
      }, 'active');
    }
    this.publish();
  }

  /** Runs one hook under the deadline; on failure the integration is torn down and a restart scheduled. */
  private async step(integration: Integration, hook: string, run: (running: Running) => Promise<void>, next: Phase): Promise<void> {
    const running = integration.running;
    if (!running) return;
    const key = integration.plugin.manifest.integration.key;
    try {
      await withDeadline(`${key}.${hook}`, this.environment.hookDeadlineMs, () => run(running));
      integration.phase = next;
      this.logger.info(`${hook}d integration`, { key });
    } catch (error) {
      await this.fail(integration, `${hook}() failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async instantiate(integration: Integration): Promise<boolean> {
    const key = integration.plugin.manifest.integration.key;
    const settings = this.settings;
    if (!(await this.stillAsApproved(integration))) return false;
    try {
      this.logger.info('loading integration', { key, path: integration.plugin.packageRoot, entry: integration.plugin.entry });
      const integrationClass = await loadIntegrationClass(integration.plugin.entry);
      const logger = this.logger.child(`plugin:${key}`);
      const health = this.healthReporter(integration);
      const silence = integration.silence;
      const { manifest } = integration.plugin;
      const feeds = new GatedFeeds(this.environment.feedsFor(key, logger, (entry) => { integration.lastEventAt = entry.at; }, health), {
        key, declaredKinds: declaredFeedKinds(manifest), heard: () => silence?.heard(),
      });
      const port = declaredPushPort(manifest);
      const { instance } = instantiateIntegration(integrationClass, {
        bookmarks: this.countingBookmarks(integration, this.environment.bookmarksFor(key)),
        recorder: this.environment.recorder,
        settings: { key, ...(port === undefined ? {} : { port }), get enabled() { return settings.current.gameIntegrations[key]?.enabled ?? true; } },
        feeds,
        clock: systemClock,
        logger,
        gamePaths: this.environment.gamePaths,
        health,
      });
      integration.running = { instance, feeds };
      return true;
    } catch (error) {
      await this.fail(integration, `could not load ${integration.plugin.packageName}: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }

  /** Checked again right before its code is imported: a package changed since its approval waits for a new one. */
  private async stillAsApproved(integration: Integration): Promise<boolean> {
    const approval = integration.approval;
    if (!approval) return true;
    const current = await hashPackageContents(integration.plugin.packageRoot);
    if (!('problem' in current) && current.hash === approval.hash) return true;
    integration.approval = { ...approval, status: 'pending', hash: 'problem' in current ? approval.hash : current.hash };
    this.logger.warn('integration changed since it was approved: it waits for a new approval', {
      ...integration.approval, problem: 'problem' in current ? current.problem : undefined,
    });
    return false;
  }

  private async fail(integration: Integration, message: string): Promise<void> {
    const key = integration.plugin.manifest.integration.key;
    integration.phase = 'failed';
    integration.failure = message;
    integration.failures += 1;
    this.logger.error('integration failed', { key, message, failures: integration.failures });
    await this.discard(integration);
    if (this.stopping || integration.failures > MAX_RESTARTS) return;
    const delay = this.environment.restartDelayMs(integration.failures);
    integration.restartTimer = setTimeout(() => {
      integration.queue = integration.queue.then(() => {
        if (integration.phase !== 'failed' || this.stopping) return;
        this.logger.info('restarting integration', { key, attempt: integration.failures });
        integration.phase = 'disabled';
        return this.reconcile(integration);
      });
    }, delay);
    integration.restartTimer.unref();
  }

  /** Drops the instance; its feeds are closed even if the plugin left them open. */
  private async discard(integration: Integration): Promise<void> {
    const running = integration.running;
    integration.running = undefined;
    integration.silence?.stop();
    integration.silence = undefined;
    integration.degradedReason = undefined;
    await running?.feeds.closeAll().catch((error: unknown) => this.logger.warn('closing feeds failed', { error }));
  }

  private runningGameOf(integration: Integration): DetectedGame | undefined {
    const names = new Set(integration.plugin.manifest.integration.games.map((game) => game.name));
    const running: RunningGame | undefined = this.games.current.find((game) => names.has(game.name));
    return running && { name: running.name, executablePath: running.executablePath, pid: running.pid };
  }

  /**
   * Counts every bookmark as an event, and logs the ones no recording covers (so plugins need not).
   * A type the manifest does not declare is refused, and said once in the log and in health.
   */
  private countingBookmarks(integration: Integration, bookmarks: BookmarksService): BookmarksService {
    const { key, events } = integration.plugin.manifest.integration;
    return {
      add: async (request) => {
        if (!(events as readonly string[]).includes(request.type)) {
          if (!integration.undeclaredEvents.has(request.type)) {
            integration.undeclaredEvents.add(request.type);
            this.logger.warn(`${request.type} not bookmarked: the manifest does not declare it in keyframe.integration.events`, { key });
            this.publish();
          }
          return false;
        }
        integration.lastEventAt = new Date();
        const added = await bookmarks.add(request);
        if (!added) this.logger.debug(`${request.type} not bookmarked: no recording covers it`, { key });
        this.publish();
        return added;
      },
    };
  }

  /** Also makes the integration's silence watch: a new one for each instance. */
  private healthReporter(integration: Integration): HealthReporter {
    const key = integration.plugin.manifest.integration.key;
    const degraded = (reason: string | undefined) => {
      if (integration.degradedReason === reason) return;
      integration.degradedReason = reason;
      this.logger.info(reason ? 'integration degraded' : 'integration recovered', { key, reason });
      this.publish();
    };
    const silence = new SilenceWatch(degraded, (reason) => integration.degradedReason === reason);
    integration.silence = silence;
    return {
      degraded,
      expectData: (expectation) => silence.expect(expectation),
      notify: (title, description) => {
        if (integration.notified.has(title)) return;
        integration.notified.add(title);
        this.notifier.showModal({ title, description, type: 'warning' });
      },
    };
  }

  private healthOf(integration: Integration): IntegrationHealth {
    const lastEventAt = integration.lastEventAt ? formatLocalDateTime(integration.lastEventAt) : null;
    const name = integration.plugin.manifest.integration.displayName;
    if (integration.phase === 'failed') return { status: 'failed', message: integration.failure ?? 'failed', lastEventAt };
    const reason = integration.degradedReason ?? this.undeclaredEventsProblem(integration);
    if (reason && integration.phase !== 'disabled') return { status: 'degraded', message: reason, lastEventAt };
    const running = this.runningGameOf(integration);
    const messages: Record<Exclude<Phase, 'failed'>, string> = {
      disabled: this.isPending(integration) ? `${name} waits for your approval: it is not shipped with Keyframe` : `${name} is switched off`,
      enabled: running
        ? `${running.name} is running: bookmarks start with the next recording`
        : `Waiting for ${integration.plugin.manifest.integration.games.map((game) => game.name).join(' or ')} to start`,
      active: `Active: listening to ${running?.name ?? name}`,
    };
    const status = integration.phase === 'enabled' ? 'idle' : integration.phase;
    return { status, message: messages[integration.phase], lastEventAt };
  }

  private undeclaredEventsProblem(integration: Integration): string | undefined {
    const types = [...integration.undeclaredEvents];
    if (types.length === 0) return undefined;
    return `${integration.plugin.manifest.integration.displayName} tried to add ${types.join(', ')} bookmarks, which its manifest does not declare `
      + '(keyframe.integration.events in its package.json): they were not added.';
  }

  private publish(): void {
    const integrations: Record<string, IntegrationHealth> = {};
    for (const [key, integration] of this.integrations) {
      const approval = integration.approval && { approval: integration.approval };
      integrations[key] = { displayName: integration.plugin.manifest.integration.displayName, ...this.healthOf(integration), ...approval };
    }
    for (const refusal of this.refused) {
      if (refusal.key && !this.integrations.has(refusal.key)) {
        integrations[refusal.key] = { status: 'failed', message: `Not loaded: ${refusal.reason}`, lastEventAt: null };
      }
    }
    const previous = this.state.current.integrations;
    if (JSON.stringify(previous) !== JSON.stringify(integrations)) this.state.update({ integrations });
  }

  /** A newly installed plugin appears in the settings, switched on (a third-party one once approved). */
  private addSettingsKeys(): void {
    const current = this.settings.current;
    const missing = [...this.integrations].filter(([key, integration]) => !current.gameIntegrations[key] && !this.isPending(integration)).map(([key]) => key);
    if (missing.length === 0) return;
    const gameIntegrations = { ...current.gameIntegrations };
    for (const key of missing) gameIntegrations[key] = { enabled: true };
    this.settings.replace({ ...current, gameIntegrations });
    this.logger.info('new integrations added to the settings', { keys: missing });
  }
}
