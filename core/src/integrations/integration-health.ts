// The health entry State shows for one integration: failed, a hook still running (with its deadline),
// degraded, or what it waits for, in words for the user.
import { formatLocalDateTime, type IntegrationHealth } from '../protocol/index.js';
import type { DetectedGame } from '../sdk/game-integration.js';
import { isPending, type HostedIntegration } from './hosted-integration.js';
import type { LifecyclePhase } from './lifecycle.js';

/** `running`: the one of its games that runs now, if any; `hookDeadlineMs`: each hook's deadline, said while one runs. */
export function integrationHealth(
  integration: HostedIntegration,
  running: DetectedGame | undefined,
  hookDeadlineMs: number,
): IntegrationHealth {
  const { lifecycle } = integration;
  const lastEventAt = lifecycle.lastEventAt ? formatLocalDateTime(lifecycle.lastEventAt) : null;
  const name = integration.plugin.manifest.integration.displayName;
  const phase = lifecycle.phase;
  if (phase === 'failed') return { status: 'failed', message: lifecycle.failure ?? 'failed', lastEventAt };
  const hook = lifecycle.runningHook;
  if (hook) {
    const starting = hook === 'enable' || hook === 'activate';
    const shown = hookDeadlineMs < 1000 ? `${hookDeadlineMs} ms` : `${Math.round(hookDeadlineMs / 1000)} s`;
    return {
      status: 'idle',
      message: `${starting ? 'Starting' : 'Stopping'}: ${hook}() has not finished yet (deadline ${shown})`,
      lastEventAt,
    };
  }
  const reason = lifecycle.problem;
  if (reason && phase !== 'disabled') return { status: 'degraded', message: reason, lastEventAt };
  const messages: Record<Exclude<LifecyclePhase, 'failed'>, string> = {
    disabled: isPending(integration) ? `${name} waits for your approval: it is not shipped with Keyframe` : `${name} is switched off`,
    enabled: running
      ? `${running.name} is running: bookmarks start with the next recording`
      : `Waiting for ${integration.plugin.manifest.integration.games.map((game) => game.name).join(' or ')} to start`,
    active: `Active: listening to ${running?.name ?? name}`,
  };
  return { status: phase === 'enabled' ? 'idle' : phase, message: messages[phase], lastEventAt };
}
