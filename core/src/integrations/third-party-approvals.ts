// Third-party approval: a package installed in the user's plugins folder by other means runs only once the
// user approved its exact contents (folder and content hash), checked again right before its code is imported.
import { CommandError } from '../protocol/refusal.js';
import { toWirePath, type IntegrationApproval } from '../protocol/index.js';
import type { Logger } from '../support/logger.js';
import type { HostedIntegration } from './hosted-integration.js';
import { hashPackageContents } from './package-contents.js';
import type { PluginApprovals } from './plugin-approvals.js';
import type { DiscoveredPlugin } from './plugin-discovery.js';

export class ThirdPartyApprovals {
  constructor(
    private readonly approvals: PluginApprovals,
    private readonly integrations: ReadonlyMap<string, HostedIntegration>,
    private readonly logger: Logger,
    /** An approval shown in health changed. */
    private readonly changed: () => void,
  ) {}

  /** Reads the user's approvals again; a damaged file approves nothing, and the log says why. */
  async load(): Promise<void> {
    const damaged = await this.approvals.load();
    if (damaged) this.logger.warn('integration approvals not read', { reason: damaged });
  }

  /** Records the approval of a pending third-party integration, if `hash` is that of its package on disk now. */
  async approve(key: string, hash: string): Promise<HostedIntegration> {
    const integration = this.thirdParty(key);
    const approval = integration.approval!;
    const current = await hashPackageContents(integration.plugin.packageRoot);
    if ('problem' in current) throw new CommandError('Failed', `${approval.packageName} cannot be approved: ${current.problem}.`);
    if (current.hash !== approval.hash) {
      integration.approval = { ...approval, status: 'pending', hash: current.hash };
      this.changed();
    }
    if (current.hash !== hash) {
      throw new CommandError(
        'InvalidParameters',
        `${approval.packageName} at ${approval.path} is not the package that was shown for approval ` +
          `(its contents hash ${current.hash.slice(0, 12)}…, not ${hash.slice(0, 12)}…): look at it again before approving it.`,
      );
    }
    await this.approvals.approve(key, approval.path, hash);
    integration.approval = { ...approval, status: 'approved', hash };
    this.logger.info('integration approved', { ...integration.approval });
    return integration;
  }

  /** Withdraws an approval: the integration waits for approval again. */
  async revoke(key: string): Promise<HostedIntegration> {
    const integration = this.thirdParty(key);
    await this.approvals.revoke(key);
    integration.approval = { ...integration.approval!, status: 'pending' };
    this.logger.info('integration approval revoked', { key, path: integration.approval.path });
    return integration;
  }

  approvalOf(plugin: DiscoveredPlugin): IntegrationApproval | undefined {
    if (plugin.contentHash === undefined) return undefined;
    const path = toWirePath(plugin.packageRoot);
    const approved = this.approvals.isApproved(plugin.manifest.integration.key, path, plugin.contentHash);
    return {
      status: approved ? 'approved' : 'pending',
      packageName: plugin.packageName,
      version: plugin.version,
      path,
      hash: plugin.contentHash,
    };
  }

  /** Checked again right before its code is imported: a package changed since its approval waits for a new one. */
  async stillAsApproved(integration: HostedIntegration): Promise<boolean> {
    const approval = integration.approval;
    if (!approval) return true;
    const current = await hashPackageContents(integration.plugin.packageRoot);
    if (!('problem' in current) && current.hash === approval.hash) return true;
    integration.approval = { ...approval, status: 'pending', hash: 'problem' in current ? approval.hash : current.hash };
    this.logger.warn('integration changed since it was approved: it waits for a new approval', {
      ...integration.approval,
      problem: 'problem' in current ? current.problem : undefined,
    });
    return false;
  }

  private thirdParty(key: string): HostedIntegration {
    const integration = this.integrations.get(key);
    if (!integration)
      throw new CommandError(
        'NotFound',
        `There is no integration "${key}": it may have been removed, or it was not loaded (see State.integrations).`,
      );
    if (!integration.approval)
      throw new CommandError(
        'NotAllowed',
        `${integration.plugin.manifest.integration.displayName} comes with Keyframe (or from a folder in KEYFRAME_PLUGIN_DIRS): it needs no approval.`,
      );
    return integration;
  }
}
