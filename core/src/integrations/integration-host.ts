// Runs the discovered integrations: a reconciler that works out, from settings, running games and the
// recorder, where each should be (enabled; active while one of its games runs during a recording, or
// for `activation: "game"` while it runs at all) and drives its IntegrationLifecycle there (hooks under
// deadlines, failures contained and restarted with back-off, a package that does not load left failed). Its
// health is announced (`events`; State shows it), including which hook is running while one runs.
// Third-party packages run only once the user approved their exact contents. A package installed while
// the service runs is loaded then; one updated or removed under a running integration takes effect at the
// next start, and State says so (`integrationPackages`). The host wires the parts that do each of these:
// integration-health.ts (health text), integration-packages.ts (State's packages list), third-party-approvals.ts
// and package-refresh.ts (live pickup of installed packages).
import { inject, injectable } from 'tsyringe';
import type { ClosableFeeds, FeedObserver } from '../sdk/feed-observer.js';
import type { IntegrationHealth, IntegrationPackage } from '../protocol/index.js';
import { GameDetector, type RunningGame } from '../games/game-detector.js';
import { Notifier } from '../notices/notifier.js';
import { IntegrationSettingsSchemas } from '../settings/integration-settings-schemas.js';
import { SettingsStore } from '../settings/settings-store.js';
import { TypedEvents } from '../support/typed-events.js';
import { Logger } from '../support/logger.js';
import type {
  Bookmarks as BookmarksService,
  DetectedGame,
  GamePaths as GamePathsService,
  HealthReporter,
  PluginLogger,
  RecorderView,
} from '../sdk/game-integration.js';
import type { FrameDemand } from '../recording/frame-demand.js';
import { IntegrationLifecycle, type DesiredState } from './lifecycle.js';
import { isPending, type HostedIntegration } from './hosted-integration.js';
import { integrationHealth } from './integration-health.js';
import { IntegrationPackages } from './integration-packages.js';
import { PackageRefresh } from './package-refresh.js';
import type { PluginApprovals } from './plugin-approvals.js';
import { systemClock } from './plugin-container.js';
import { ThirdPartyApprovals } from './third-party-approvals.js';
import { discoverPlugins, type DiscoveredPlugin, type Discovery, type RefusedPlugin } from './plugin-discovery.js';
import type { PluginFolder } from './plugin-folders.js';
import { declaredSettingsSchema, loadIntegrationClass, type IntegrationClass } from './plugin-loader.js';

export const MAX_RESTARTS = 3;

/** What the host needs from the rest of the service; the composition root provides it. */
export interface IntegrationHostEnvironment {
  searchFolders: readonly PluginFolder[];
  /** The user's approvals of third-party packages. */
  approvals: PluginApprovals;
  recorder: RecorderView;
  /** Where the host says that recordings should carry screen frames (an integration reading on-screen text has its game running). */
  frameDemand: FrameDemand;
  /** Bookmarks on behalf of one integration. */
  bookmarksFor(key: string): BookmarksService;
  /** `health` is the integration's own: a feed that cannot read (screenText) says so there. */
  feedsFor(key: string, logger: PluginLogger, observe: FeedObserver, health: HealthReporter): ClosableFeeds;
  gamePaths: GamePathsService;
  hookDeadlineMs: number;
  /** Back-off before restart n (1-based). */
  restartDelayMs(attempt: number): number;
  /** Called before a plugin's entry module is imported. */
  beforeImport?(entry: string): void;
  /** Calls `changed` after the user plugins folder or the approvals file changed; resolves to what stops that. */
  watchPluginChanges?(changed: () => void): Promise<() => Promise<void>>;
}
export const INTEGRATION_HOST_ENVIRONMENT = Symbol('IntegrationHostEnvironment');

@injectable()
export class IntegrationHost {
  private readonly integrations = new Map<string, HostedIntegration>();
  private readonly packages: IntegrationPackages;
  private readonly thirdParty: ThirdPartyApprovals;
  private readonly packageRefresh: PackageRefresh;
  private stopWatching: (() => Promise<void>) | undefined;
  private readonly logger: Logger;
  private readonly unsubscribe: (() => void)[] = [];
  /** The health of every integration, after each change of one (State's `integrations` shows it). */
  readonly events = new TypedEvents<{ health: Record<string, IntegrationHealth>; packages: IntegrationPackage[] }>();

  constructor(
    @inject(INTEGRATION_HOST_ENVIRONMENT) private readonly environment: IntegrationHostEnvironment,
    private readonly settings: SettingsStore,
    private readonly games: GameDetector,
    private readonly notifier: Notifier,
    private readonly settingsSchemas: IntegrationSettingsSchemas,
    logger: Logger,
  ) {
    this.logger = logger.child('integrations');
    this.packages = new IntegrationPackages(this.logger);
    this.thirdParty = new ThirdPartyApprovals(environment.approvals, this.integrations, this.logger, () => this.publish());
    this.packageRefresh = new PackageRefresh(
      {
        integrations: this.integrations,
        discover: async () => (await this.discover()).plugins,
        add: (plugin) => this.add(plugin),
        approvalOf: (plugin) => this.thirdParty.approvalOf(plugin),
        refusalAt: (packageRoot) => this.packages.refusalAt(packageRoot),
        refreshed: () => {
          this.addSettingsKeys();
          this.reconcileAll();
          this.publish();
        },
      },
      this.logger,
    );
  }

  get keys(): string[] {
    return [...this.integrations.keys()];
  }

  get refusedPlugins(): readonly RefusedPlugin[] {
    return this.packages.refused;
  }

  /** An integration that reads on-screen text wants screen frames while it is switched on and one of its games runs. */
  private declareFrameDemand(): void {
    for (const [key, integration] of this.integrations) {
      const { feeds } = integration.plugin.manifest.integration;
      const reads =
        this.wantsEnabled(integration) && integration.lifecycle.phase !== 'failed' && feeds.some((feed) => /^screenText(:|$)/.test(feed));
      this.environment.frameDemand.want(key, reads ? this.runningGameOf(integration)?.name : undefined);
    }
  }

  /** Discovers plugins, adds their settings keys, enables the enabled ones, and starts following changes. */
  async start(): Promise<void> {
    const discovery = await this.discover();
    for (const plugin of discovery.plugins) this.add(plugin);
    this.logger.info('integrations discovered', { keys: this.keys, refused: discovery.refused.length });
    this.addSettingsKeys();
    // State lists them from here on, while their classes load.
    this.publish();
    // A package the user has not approved adds no games either: it could start recordings.
    this.games.addCatalog(() =>
      [...this.integrations.values()]
        .filter((integration) => !isPending(integration))
        .flatMap((integration) => integration.plugin.manifest.integration.games),
    );

    await Promise.all([...this.integrations.values()].map((integration) => this.readDeclaredSettings(integration)));
    this.unsubscribe.push(
      // Only `gameIntegrations` says what an integration wants (switched on, its own settings): other changes do not reconcile.
      this.settings.onChange(() => {
        for (const integration of this.integrations.values()) integration.lifecycle.settingsChanged();
        this.reconcileAll();
      }, ['gameIntegrations']),
      this.games.onChange(() => this.reconcileAll()),
      this.environment.recorder.onStarted(() => this.reconcileAll()),
      this.environment.recorder.onStopped(() => this.reconcileAll()),
    );
    this.reconcileAll();
    await this.settled();
    this.stopWatching = await this.environment.watchPluginChanges?.(() => void this.refresh());
  }

  private add(plugin: DiscoveredPlugin): HostedIntegration {
    const integration: HostedIntegration = { plugin, approval: this.thirdParty.approvalOf(plugin), lifecycle: this.lifecycleOf(plugin) };
    this.integrations.set(plugin.manifest.integration.key, integration);
    if (plugin.warnings.length > 0)
      this.logger.warn('integration manifest warnings', { path: plugin.packageRoot, warnings: plugin.warnings });
    if (integration.approval?.status === 'pending')
      this.logger.warn("integration waits for the user's approval", { ...integration.approval });
    return integration;
  }

  /**
   * Discovers again (the plugin folders or approvals changed): a new package is added (and loaded, once
   * approved), a package whose code never ran is replaced or dropped, and a running one that was
   * updated or removed keeps running until the next start, with a note saying so.
   */
  refresh(): Promise<void> {
    return this.packageRefresh.run();
  }

  /** The approvals read again, then the plugin folders searched; refusals are noted for State. */
  private async discover(): Promise<Discovery> {
    await this.thirdParty.load();
    const discovery = await discoverPlugins(this.environment.searchFolders);
    await this.packages.noteRefusals(discovery.refused);
    return discovery;
  }

  /** Resolves when every queued transition has run. */
  async settled(): Promise<void> {
    await Promise.all([...this.integrations.values()].map((integration) => integration.lifecycle.settled()));
  }

  /** Deactivates every active integration (at shutdown); nothing is re-activated afterwards. */
  async stop(): Promise<void> {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    await this.stopWatching?.();
    await this.packageRefresh.settled();
    await Promise.all([...this.integrations.values()].map((integration) => integration.lifecycle.stop()));
  }

  /** Lets a pending third-party integration run, if `hash` is that of its package on disk now. */
  async approve(key: string, hash: string): Promise<void> {
    const integration = await this.thirdParty.approve(key, hash);
    this.addSettingsKeys();
    await this.readDeclaredSettings(integration);
    this.reconcileAll();
    await integration.lifecycle.settled();
  }

  /** Withdraws an approval: the integration stops and waits for approval again. */
  async revoke(key: string): Promise<void> {
    const integration = await this.thirdParty.revoke(key);
    this.reconcileAll();
    await integration.lifecycle.settled();
  }

  /** Switched on in the settings, and approved where it has to be. */
  private wantsEnabled(integration: HostedIntegration): boolean {
    return (
      !isPending(integration) && (this.settings.current.gameIntegrations[integration.plugin.manifest.integration.key]?.enabled ?? true)
    );
  }

  health(key: string): IntegrationHealth | undefined {
    const integration = this.integrations.get(key);
    return integration && this.healthOf(integration);
  }

  private reconcileAll(): void {
    this.declareFrameDemand();
    for (const integration of this.integrations.values()) void integration.lifecycle.reconcile();
  }

  /** The one lifecycle of a discovered plugin, driven towards what settings, games and the recorder say. */
  private lifecycleOf(plugin: DiscoveredPlugin): IntegrationLifecycle {
    const { manifest } = plugin;
    const key = manifest.integration.key;
    const integration = () => this.integrations.get(key)!;
    const pluginLogger = this.logger.child(`plugin:${key}`);
    const lifecycle: IntegrationLifecycle = new IntegrationLifecycle({
      key,
      manifest,
      packageName: plugin.packageName,
      packageRoot: plugin.packageRoot,
      desired: () => this.desiredState(integration()),
      load: () => this.loadClass(integration()),
      feeds: ({ logger, observe, health }) => this.environment.feedsFor(key, logger, observe, health),
      bookmarks: this.environment.bookmarksFor(key),
      recorder: this.environment.recorder,
      enabled: () => this.settings.current.gameIntegrations[key]?.enabled ?? true,
      storedSettings: () => this.settings.current.gameIntegrations[key],
      settingsDeclared: (schema) => this.settingsSchemas.declare(key, schema),
      clock: systemClock,
      gamePaths: this.environment.gamePaths,
      pluginLogger,
      logger: this.logger,
      notify: (title, description) => this.notifier.showModal({ title, description, type: 'warning' }),
      hookDeadlineMs: this.environment.hookDeadlineMs,
      restart: { max: MAX_RESTARTS, delayMs: (attempt) => this.environment.restartDelayMs(attempt) },
      changed: () => this.publish(),
    });
    return lifecycle;
  }

  /** Its class, once its package is checked against the approval (a package waiting for one is not imported). */
  private async loadClass(integration: HostedIntegration): Promise<IntegrationClass | undefined> {
    const { plugin } = integration;
    if (!(await this.thirdParty.stillAsApproved(integration))) return undefined;
    this.logger.info('loading integration', { key: plugin.manifest.integration.key, path: plugin.packageRoot, entry: plugin.entry });
    integration.imported = true;
    this.environment.beforeImport?.(plugin.entry);
    return loadIntegrationClass(plugin.entry, plugin.packageRoot);
  }

  /**
   * The settings page shows an integration's own settings while it is switched off too, so its class is
   * loaded for them at start; one that cannot load says why in its health once it is switched on.
   */
  private async readDeclaredSettings(integration: HostedIntegration): Promise<void> {
    if (isPending(integration)) return;
    const key = integration.plugin.manifest.integration.key;
    try {
      const integrationClass = await this.loadClass(integration);
      if (integrationClass) this.settingsSchemas.declare(key, declaredSettingsSchema(integrationClass));
    } catch (error) {
      this.logger.debug('settings of an integration not read: its class does not load', { key, error });
    }
  }

  /** Enabled when switched on (and approved); active while one of its games runs (during a recording, unless `activation: "game"`). */
  private desiredState(integration: HostedIntegration): DesiredState {
    const enabled = this.wantsEnabled(integration);
    const game = enabled ? this.runningGameOf(integration) : undefined;
    const duringRecordingsOnly = integration.plugin.manifest.integration.activation !== 'game';
    const active = game !== undefined && (!duringRecordingsOnly || this.environment.recorder.current !== undefined);
    return { enabled, ...(active ? { activeFor: game } : {}) };
  }

  private runningGameOf(integration: HostedIntegration): DetectedGame | undefined {
    const names = new Set(integration.plugin.manifest.integration.games.map((game) => game.name));
    const running: RunningGame | undefined = this.games.current.find((game) => names.has(game.name));
    return running && { name: running.name, executablePath: running.executablePath, pid: running.pid };
  }

  private healthOf(integration: HostedIntegration): IntegrationHealth {
    return integrationHealth(integration, this.runningGameOf(integration), this.environment.hookDeadlineMs);
  }

  private publish(): void {
    this.declareFrameDemand();
    const integrations: Record<string, IntegrationHealth> = {};
    for (const [key, integration] of this.integrations) {
      const approval = integration.approval && { approval: integration.approval };
      integrations[key] = { displayName: integration.plugin.manifest.integration.displayName, ...this.healthOf(integration), ...approval };
    }
    for (const refusal of this.packages.refused) {
      if (refusal.key && !this.integrations.has(refusal.key)) {
        integrations[refusal.key] = { status: 'failed', message: `Not loaded: ${refusal.reason}`, lastEventAt: null };
      }
    }
    this.events.emit('health', integrations);
    this.events.emit('packages', this.packages.list(this.integrations));
  }

  /** A newly installed plugin appears in the settings, switched on (a third-party one once approved). */
  private addSettingsKeys(): void {
    const current = this.settings.current;
    const missing = [...this.integrations]
      .filter(([key, integration]) => !current.gameIntegrations[key] && !isPending(integration))
      .map(([key]) => key);
    if (missing.length === 0) return;
    const gameIntegrations = { ...current.gameIntegrations };
    for (const key of missing) gameIntegrations[key] = { enabled: true };
    this.settings.replace({ ...current, gameIntegrations });
    this.logger.info('new integrations added to the settings', { keys: missing });
  }
}
