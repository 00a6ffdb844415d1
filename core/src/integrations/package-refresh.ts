// Live pickup of the packages in the plugin folders while the service runs: a new package is added (and
// loaded, once approved), a package whose code never ran is replaced or dropped, and a running one that was
// updated or removed keeps running until the next start, with a note saying so (Node cannot unload a module).
import type { IntegrationApproval } from '../protocol/index.js';
import type { Logger } from '../support/logger.js';
import type { HostedIntegration } from './hosted-integration.js';
import type { Refusal } from './integration-packages.js';
import type { DiscoveredPlugin } from './plugin-discovery.js';

/** What a refresh reads and changes: the host's integrations, and how it adds one. */
export interface RefreshedHost {
  readonly integrations: Map<string, HostedIntegration>;
  /** Discovers the packages again (approvals read again, refusals noted). */
  discover(): Promise<readonly DiscoveredPlugin[]>;
  add(plugin: DiscoveredPlugin): HostedIntegration;
  approvalOf(plugin: DiscoveredPlugin): IntegrationApproval | undefined;
  refusalAt(packageRoot: string): Refusal | undefined;
  /** After each refresh: settings keys, the reconciler and State catch up. */
  refreshed(): void;
}

export class PackageRefresh {
  private refreshing: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: RefreshedHost,
    private readonly logger: Logger,
  ) {}

  /** Queues a refresh after the one under way; resolves once it has run. */
  run(): Promise<void> {
    this.refreshing = this.refreshing
      .catch(() => undefined)
      .then(async () => {
        const { integrations } = this.host;
        const found = new Map((await this.host.discover()).map((plugin) => [plugin.manifest.integration.key, plugin]));
        for (const [key, integration] of [...integrations]) {
          const now = found.get(key);
          found.delete(key);
          if (integration.imported) {
            integration.restartNeeded = restartNote(integration.plugin, now, this.host.refusalAt(integration.plugin.packageRoot));
            continue;
          }
          if (now && !isSamePackage(now, integration.plugin)) await this.replace(key, now);
          else if (now) integration.approval = this.host.approvalOf(now);
          else await this.replace(key, undefined);
        }
        for (const plugin of found.values()) this.host.add(plugin);
        if (found.size > 0) this.logger.info('integrations discovered', { keys: [...found.keys()] });
        this.host.refreshed();
      });
    return this.refreshing;
  }

  /** The refresh under way, if any. */
  settled(): Promise<void> {
    return this.refreshing;
  }

  /** Swaps (or drops) an integration whose code never ran: nothing of it needs unloading. */
  private async replace(key: string, plugin: DiscoveredPlugin | undefined): Promise<void> {
    await this.host.integrations.get(key)?.lifecycle.stop();
    this.host.integrations.delete(key);
    if (plugin) this.host.add(plugin);
  }
}

/** Why the running package is not the one on disk now (`refused`: the package in its folder was refused); undefined when it is. */
function restartNote(running: DiscoveredPlugin, onDisk: DiscoveredPlugin | undefined, refused: Refusal | undefined): string | undefined {
  if (!onDisk) {
    // Still there, but now refused (a version for another Keyframe, say): its refusal is listed beside it.
    return refused
      ? `Replaced on disk by a package Keyframe refuses (${refused.reason}) — the running one stays until Keyframe restarts`
      : 'Removed — restart Keyframe to unload it';
  }
  if (isSamePackage(running, onDisk)) return undefined;
  return running.version === onDisk.version
    ? 'Changed on disk — restart Keyframe to use the new files'
    : `Updated to ${onDisk.version} — restart Keyframe to use it`;
}

/** The same package as discovered before: same folder, version and contents. */
function isSamePackage(a: DiscoveredPlugin, b: DiscoveredPlugin): boolean {
  return a.packageRoot === b.packageRoot && a.version === b.version && a.contentHash === b.contentHash;
}
