import type { IntegrationPackage, State } from '@keyframe/core/protocol';

type Shown = IntegrationPackage & { status: 'refused' | 'failed' | 'restartNeeded' };

const LABELS: Record<Shown['status'], string> = { refused: 'Not loaded', failed: 'Failed', restartNeeded: 'Restart needed' };
const HEALTH: Record<Shown['status'], string> = { refused: 'failed', failed: 'failed', restartNeeded: 'degraded' };

/**
 * Integration packages that do not simply run: refused or failed (with the reason and what to do), and
 * updated or removed while running (the change waits for a restart). Those waiting for approval are
 * shown by PendingIntegrations.
 */
export function IntegrationPackages({ state }: { state: State }) {
  const shown = state.integrationPackages.filter((entry): entry is Shown => entry.status !== 'waitingForApproval');
  if (shown.length === 0) return null;
  return (
    <section className="integration-packages" data-testid="integration-packages" aria-labelledby="integration-packages-title">
      <h3 id="integration-packages-title">Packages that need attention</h3>
      <ul className="integration-list">
        {shown.map((entry) => (
          <li className="integration-list__item" key={entry.folder} data-testid={`integration-package-${entry.key ?? entry.folder}`}>
            <div className="integration-list__text">
              <span className="integration-list__name">
                {entry.packageName ?? entry.key ?? entry.folder} {entry.version}
              </span>
              <span className="integration-list__message" data-testid="integration-package-reason">
                {entry.reason}
              </span>
              <span className="integration-list__message package-details__path">{entry.folder}</span>
              {entry.warnings.map((warning) => (
                <span className="integration-list__message" key={warning}>
                  Warning: {warning}
                </span>
              ))}
            </div>
            <span className={`health health--${HEALTH[entry.status]}`}>{LABELS[entry.status]}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
