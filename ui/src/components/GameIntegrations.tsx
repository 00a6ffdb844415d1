import type { Settings, State } from '@keyframe/core/protocol';
import { useId } from 'react';
import { connection } from '../connection';
import { integrationName } from '../format/integration-name';
import { Card } from './Card';
import { Switch } from './Switch';

interface GameIntegrationsProps {
  integrations: Settings['gameIntegrations'];
  health: State['integrations'];
  /** Integrations cannot change while a recording is being prepared or running. */
  locked: boolean;
  connected: boolean;
}

export function GameIntegrations({ integrations, health, locked, connected }: GameIntegrationsProps) {
  const idPrefix = useId();
  const entries = Object.entries(integrations)
    .map(([key, setting]) => ({ key, name: integrationName(key), enabled: setting.enabled }))
    .sort((a, b) => a.name.localeCompare(b.name));

  return (
    <Card title="Game integrations" className="integrations-card">
      {locked && <p className="card__hint">Integrations can be changed when nothing is recording.</p>}
      {entries.length === 0 ? (
        <p className="empty">No game integrations are installed.</p>
      ) : (
        <ul className="integration-list">
          {entries.map(({ key, name, enabled }) => {
            const labelId = `${idPrefix}-${key}`;
            const status = health[key]?.status;
            return (
              <li className="integration-list__item" key={key}>
                <span className="integration-list__name" id={labelId}>{name}</span>
                {status && <span className={`health health--${status}`} title={health[key]?.message}>{status}</span>}
                <Switch
                  checked={enabled}
                  disabled={locked || !connected}
                  labelledBy={labelId}
                  onToggle={() => connection.send('UpdateSettings', { gameIntegrations: { [key]: { enabled: !enabled } } })}
                />
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
