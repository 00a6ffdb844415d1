import { useState } from 'react';
import type { IntegrationApproval, State } from '@keyframe/core/protocol';
import { connection } from '../connection';

interface Pending {
  key: string;
  name: string;
  approval: IntegrationApproval;
}

/** Third-party packages found in the user plugins folder: none of their code runs until approved here. */
export function PendingIntegrations({ state, connected }: { state: State; connected: boolean }) {
  const pending: Pending[] = Object.entries(state.integrations)
    .flatMap(([key, health]) =>
      health.approval?.status === 'pending' ? [{ key, name: health.displayName ?? key, approval: health.approval }] : [],
    )
    .sort((a, b) => a.name.localeCompare(b.name));
  if (pending.length === 0) return null;
  return (
    <section className="pending-integrations" data-testid="pending-integrations" aria-labelledby="pending-integrations-title">
      <h3 id="pending-integrations-title">Waiting for your approval</h3>
      <p className="settings-note">
        These integrations were installed in your plugins folder and do not come with Keyframe. An approved integration runs with the same
        access to your computer as Keyframe: approve only a package you installed yourself and trust.
      </p>
      <ul className="integration-list">
        {pending.map((entry) => (
          <PendingIntegration key={entry.key} entry={entry} connected={connected} />
        ))}
      </ul>
    </section>
  );
}

function PendingIntegration({ entry: { key, name, approval }, connected }: { entry: Pending; connected: boolean }) {
  // Approving takes two clicks: the first asks, beside the details, whether to run this very package.
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="integration-list__item integration-list__item--pending" data-testid={`pending-integration-${key}`}>
      <dl className="package-details">
        <dt>Integration</dt>
        <dd>{name}</dd>
        <dt>Package</dt>
        <dd data-testid={`pending-integration-${key}-package`}>
          {approval.packageName} {approval.version}
        </dd>
        <dt>Folder</dt>
        <dd className="package-details__path" data-testid={`pending-integration-${key}-path`}>
          {approval.path}
        </dd>
        <dt>SHA-256</dt>
        <dd className="package-details__hash" title={approval.hash} data-testid={`pending-integration-${key}-hash`}>
          {approval.hash.slice(0, 16)}…
        </dd>
      </dl>
      {confirming ? (
        <div className="package-approval" role="group" aria-label={`Approve ${name}`}>
          <span>
            Run the code of {approval.packageName} {approval.version}?
          </span>
          <button
            type="button"
            className="button button--primary button--small"
            disabled={!connected}
            data-testid={`approve-integration-${key}`}
            onClick={() => {
              connection.send('ApproveIntegration', { key, hash: approval.hash });
              setConfirming(false);
            }}
          >
            Approve and run
          </button>
          <button type="button" className="button button--small" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="button button--small"
          disabled={!connected}
          data-testid={`review-integration-${key}`}
          onClick={() => setConfirming(true)}
        >
          Approve…
        </button>
      )}
    </li>
  );
}
