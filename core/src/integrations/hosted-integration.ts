// One integration as the host holds it: its discovered package, its lifecycle, and what the user must know
// about the package (approval, a restart needed to use what is on disk now).
import type { IntegrationApproval } from '../protocol/index.js';
import type { IntegrationLifecycle } from './lifecycle.js';
import type { DiscoveredPlugin } from './plugin-discovery.js';

export interface HostedIntegration {
  plugin: DiscoveredPlugin;
  /** Third-party packages only: what the user sees and approves. */
  approval?: IntegrationApproval;
  lifecycle: IntegrationLifecycle;
  /** Its code was imported: from then on only a restart replaces or unloads it. */
  imported?: boolean;
  /** Why the package on disk is no longer the one running ("Updated to 0.2.0 — restart Keyframe to use it"). */
  restartNeeded?: string;
}

/** A third-party package the user has not approved (yet, or again since it changed). */
export function isPending(integration: HostedIntegration): boolean {
  return integration.approval?.status === 'pending';
}
