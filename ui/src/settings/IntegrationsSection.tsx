import { Switch } from '../components/Switch';
import { integrationName } from '../format/integration-name';
import { connection } from '../connection';
import { SettingsGroup } from './fields';
import { IntegrationPackages } from './IntegrationPackages';
import { IntegrationSettingsForm } from './IntegrationSettingsForm';
import { PendingIntegrations } from './PendingIntegrations';
import type { SectionProps } from './section-props';
import { updateSettings } from './update-settings';

/**
 * One switch per game integration with its health, and the third-party packages waiting for approval.
 * SPEC: no switching while recording or preparing to.
 */
export function IntegrationsSection({ settings, state, connected }: SectionProps) {
  const locked = state.recording !== null || state.preRecording !== null;
  const entries = Object.entries(settings.gameIntegrations)
    .map(([key, setting]) => ({
      key,
      name: state.integrations[key]?.displayName ?? integrationName(key),
      enabled: setting.enabled,
      setting,
      health: state.integrations[key],
    }))
    .sort((a, b) => a.name.localeCompare(b.name));

  return (
    <SettingsGroup title="Game integrations" description="Integrations add bookmarks for kills, deaths, assists and goals while you play.">
      <PendingIntegrations state={state} connected={connected} />
      <IntegrationPackages state={state} />
      {locked && (
        <p className="settings-note" role="status" data-testid="integrations-locked">
          Integrations can be switched on or off when nothing is recording.
        </p>
      )}
      {entries.length === 0 ? (
        <p className="empty">No game integrations are installed.</p>
      ) : (
        <ul className="integration-list">
          {entries.map(({ key, name, enabled, setting, health }) => (
            <li className="integration-list__item" key={key} data-testid={`integration-${key}`}>
              <div className="integration-list__text">
                <span className="integration-list__name" id={`integration-${key}-name`}>
                  {name}
                </span>
                {health?.message && <span className="integration-list__message">{health.message}</span>}
              </div>
              {health && <span className={`health health--${health.status}`}>{health.status}</span>}
              {health?.approval?.status === 'approved' && (
                <button
                  type="button"
                  className="button button--small"
                  disabled={!connected}
                  data-testid={`revoke-integration-${key}`}
                  title={`${health.approval.packageName} ${health.approval.version}, ${health.approval.path}`}
                  onClick={() => connection.send('RevokeIntegration', { key })}
                >
                  Revoke approval
                </button>
              )}
              <Switch
                checked={enabled}
                disabled={locked || !connected}
                labelledBy={`integration-${key}-name`}
                testId={`integration-toggle-${key}`}
                onToggle={() => updateSettings({ gameIntegrations: { [key]: { enabled: !enabled } } })}
              />
              {state.integrationSettings[key] && (
                <IntegrationSettingsForm
                  integrationKey={key}
                  schema={state.integrationSettings[key]}
                  stored={setting}
                  lockedReason={locked ? 'Its settings can be changed when nothing is recording.' : undefined}
                  connected={connected}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </SettingsGroup>
  );
}
