import type { ConnectionStatus } from '../connection';
import { ConnectionIndicator } from './ConnectionIndicator';
import { UpdateReadyBadge } from './UpdateReadyBadge';

interface AppHeaderProps {
  version: string | undefined;
  status: ConnectionStatus;
}

export function AppHeader({ version, status }: AppHeaderProps) {
  return (
    <header className="app-header">
      <div className="app-header__brand">
        <span className="app-header__logo" aria-hidden="true" />
        <h1 className="app-header__name">Keyframe</h1>
        {version && <span className="app-header__version">v{version}</span>}
        <UpdateReadyBadge />
      </div>
      <ConnectionIndicator status={status} />
    </header>
  );
}
