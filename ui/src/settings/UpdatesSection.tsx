import { useState } from 'react';
import { BUILT_VERSION, connection, useServerEvent } from '../connection';
import { ReleaseNotesList } from '../dialogs';
import { useLatestEvent } from '../state/latest-events';
import { SettingsGroup, ToggleField } from './fields';
import type { SectionProps } from './section-props';
import { useUpdateProgress } from './update-progress';
import { updateSettings } from './update-settings';

const STATUS_TEXT = { downloading: 'Downloading', downloaded: 'Downloaded', ready: 'Ready to install' } as const;

/** The running version, the update check, download progress, installing, and the release notes. */
export function UpdatesSection({ settings, state, connected }: SectionProps) {
  const appVersion = useLatestEvent('AppVersion');
  const progress = useUpdateProgress();
  const notes = useLatestEvent('ReleaseNotes')?.releaseNotesList ?? [];
  const canSelfUpdate = appVersion?.canSelfUpdate ?? false;
  // Only `ready` is installable: `downloaded` at 100 % is still being checked, and ApplyUpdate would be refused.
  const ready = progress?.status === 'ready';
  const failed = progress !== undefined && progress.progress < 0;
  // The progress the user asked to install: the service restarts (the progress goes with the connection) or refuses.
  const [installing, setInstalling] = useState<typeof progress>();
  useServerEvent('CommandRejected', ({ method }) => {
    if (method === 'ApplyUpdate') setInstalling(undefined);
  });

  return (
    <>
      <SettingsGroup
        title="Updates"
        description={`Keyframe ${appVersion?.version ?? BUILT_VERSION} is running.`}
        actions={
          <button
            type="button"
            className="button"
            disabled={!connected || state.isCheckingForUpdates}
            onClick={() => connection.send('CheckForUpdates')}
            data-testid="check-updates"
          >
            {state.isCheckingForUpdates ? 'Checking…' : 'Check for updates'}
          </button>
        }
      >
        {progress ? (
          <div className={`update-progress${failed ? ' update-progress--error' : ''}`} data-testid="update-progress">
            <p className="update-progress__title">
              Version {progress.version}: {failed ? 'failed' : STATUS_TEXT[progress.status]}
            </p>
            <p className="setting-row__hint">{progress.message}</p>
            {!failed && !ready && <progress className="update-progress__bar" max={100} value={progress.progress} />}
            {ready && (
              <button
                type="button"
                className="button button--primary"
                disabled={!connected || !canSelfUpdate || installing === progress}
                onClick={() => {
                  if (connection.send('ApplyUpdate')) setInstalling(progress);
                }}
                data-testid="apply-update"
              >
                {installing === progress ? 'Installing…' : 'Install and restart'}
              </button>
            )}
            {ready && !canSelfUpdate && (
              <p className="setting-row__hint">This installation cannot update itself; install the new version by hand.</p>
            )}
          </div>
        ) : (
          <p className="empty">{state.isCheckingForUpdates ? 'Looking for a new version…' : 'No update is being downloaded.'}</p>
        )}
        <ToggleField
          label="Beta versions"
          hint="Also offer test versions before their release."
          checked={settings.receiveBetaUpdates}
          disabled={!connected}
          onChange={(receiveBetaUpdates) => updateSettings({ receiveBetaUpdates })}
        />
      </SettingsGroup>
      <SettingsGroup title="Release notes">
        <ReleaseNotesList notes={notes} />
      </SettingsGroup>
    </>
  );
}
