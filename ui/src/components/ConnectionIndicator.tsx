import type { ConnectionStatus } from '../connection';

const STATUS_LABELS = {
  connecting: 'Connecting…',
  open: 'Connected',
  closed: 'Disconnected',
  replaced: 'Opened in another window',
} as const satisfies Record<ConnectionStatus, string>;

export function ConnectionIndicator({ status }: { status: ConnectionStatus }) {
  return (
    <div className="connection-indicator" role="status">
      <span className={`status-dot status-dot--${status}`} aria-hidden="true" />
      {STATUS_LABELS[status]}
    </div>
  );
}
