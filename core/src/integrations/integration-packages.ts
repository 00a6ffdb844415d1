// State's `integrationPackages`: the packages Keyframe refused at the last discovery (each new refusal
// logged once), then the integrations that wait for an approval, failed, or need a restart.
import { toWirePath, type IntegrationPackage } from '../protocol/index.js';
import type { Logger } from '../support/logger.js';
import { isPending, type HostedIntegration } from './hosted-integration.js';
import type { RefusedPlugin } from './plugin-discovery.js';
import { readPackageIdentity, type PackageIdentity } from './package-json.js';

export type Refusal = RefusedPlugin & PackageIdentity;

export class IntegrationPackages {
  private refusals: Refusal[] = [];

  constructor(private readonly logger: Logger) {}

  /** The packages the last discovery refused, with their name and version where their package.json says them. */
  get refused(): readonly Refusal[] {
    return this.refusals;
  }

  /** The refusal of the package in this folder, if the last discovery refused it. */
  refusalAt(packageRoot: string): Refusal | undefined {
    return this.refusals.find((refusal) => refusal.packageRoot === packageRoot);
  }

  async noteRefusals(refused: readonly RefusedPlugin[]): Promise<void> {
    const known = new Set(this.refusals.map((refusal) => `${refusal.packageRoot}\0${refusal.reason}`));
    this.refusals = await Promise.all(
      refused.map(async (refusal) => ({ ...(await readPackageIdentity(refusal.packageRoot)), ...refusal })),
    );
    for (const refusal of this.refusals) {
      if (!known.has(`${refusal.packageRoot}\0${refusal.reason}`)) this.logger.warn('integration package refused', { ...refusal });
    }
  }

  /** Refused packages, then integrations that wait, failed, or need a restart. */
  list(integrations: ReadonlyMap<string, HostedIntegration>): IntegrationPackage[] {
    const refused = this.refusals.map((refusal): IntegrationPackage => ({
      ...(refusal.packageName === undefined ? {} : { packageName: refusal.packageName }),
      ...(refusal.version === undefined ? {} : { version: refusal.version }),
      folder: toWirePath(refusal.packageRoot),
      ...(refusal.key === undefined ? {} : { key: refusal.key }),
      status: 'refused',
      reason: refusal.reason,
      warnings: refusal.warnings,
    }));
    const troubled = [...integrations].flatMap(([key, integration]): IntegrationPackage[] => {
      const { plugin, lifecycle } = integration;
      const described = { packageName: plugin.packageName, version: plugin.version, folder: toWirePath(plugin.packageRoot), key };
      const { status, reason } = integration.restartNeeded
        ? { status: 'restartNeeded' as const, reason: integration.restartNeeded }
        : isPending(integration)
          ? {
              status: 'waitingForApproval' as const,
              reason: 'Installed in your plugins folder by other means: it runs once you approve it',
            }
          : lifecycle.phase === 'failed'
            ? { status: 'failed' as const, reason: lifecycle.failure ?? 'failed' }
            : { status: undefined, reason: '' };
      return status ? [{ ...described, status, reason, warnings: plugin.warnings }] : [];
    });
    return [...refused, ...troubled];
  }
}
