import { useId, useState } from 'react';
import { connection } from '../connection';
import { NumberField, SettingsGroup } from './fields';
import type { SectionProps } from './section-props';
import { updateSettings } from './update-settings';

const formatGb = (gb: number | null) => (gb === null ? 'unknown' : `${gb.toFixed(gb < 10 ? 2 : 1)} GB`);

/** Where videos and the cache live, the size limit, and how full the library is. */
export function StorageSection({ settings, state, connected }: SectionProps) {
  const usedShare = Math.min(1, state.currentFolderSizeGb / settings.storageLimit);
  return (
    <>
      <SettingsGroup title="Library size" description="When the library grows past the limit, Keyframe warns you before recording more.">
        <div className="storage-meter" data-testid="storage-meter">
          <div
            className="storage-meter__bar"
            role="meter"
            aria-label="Library size"
            aria-valuemin={0}
            aria-valuemax={settings.storageLimit}
            aria-valuenow={Number(state.currentFolderSizeGb.toFixed(2))}
          >
            <span className="storage-meter__fill" style={{ width: `${usedShare * 100}%` }} data-full={usedShare >= 0.9 || undefined} />
          </div>
          <p className="storage-meter__text">
            {formatGb(state.currentFolderSizeGb)} of {settings.storageLimit} GB used · {formatGb(state.recordingDriveFreeGb)} free on the
            drive
          </p>
        </div>
        <NumberField
          label="Storage limit"
          value={settings.storageLimit}
          min={1}
          unit="GB"
          disabled={!connected}
          testId="setting-storageLimit"
          onCommit={(storageLimit) => updateSettings({ storageLimit })}
        />
      </SettingsGroup>
      <SettingsGroup title="Folders">
        <FolderField
          label="Video folder"
          hint="Sessions, replays, clips and highlights."
          current={settings.contentFolder}
          disabled={!connected}
          testId="content-folder"
          onChange={(Path) => connection.send('SetVideoLocation', { Path })}
        />
        <FolderField
          label="Cache folder"
          hint="Thumbnails, waveforms, metadata and the replay buffer."
          current={settings.cacheFolder}
          disabled={!connected}
          testId="cache-folder"
          onChange={(Path) => connection.send('SetCacheLocation', { Path })}
        />
        <div className="setting-row">
          <div className="setting-row__text">
            <p className="setting-row__label">Move videos into the video folder</p>
            <p className="setting-row__hint">Videos of the library that lie elsewhere are moved into it.</p>
          </div>
          <button type="button" className="button" disabled={!connected} onClick={() => connection.send('MigrateContent')}>
            Move videos
          </button>
        </div>
      </SettingsGroup>
    </>
  );
}

interface FolderFieldProps {
  label: string;
  hint: string;
  current: string;
  disabled: boolean;
  testId: string;
  onChange: (path: string) => void;
}

/** A folder shown as a path; "Change" lets the user type another (a web page has no folder picker). */
function FolderField({ label, hint, current, disabled, testId, onChange }: FolderFieldProps) {
  const [draft, setDraft] = useState<string>();
  const inputId = useId();
  return (
    <div className="setting-row setting-row--wide">
      <div className="setting-row__text">
        <label className="setting-row__label" htmlFor={inputId}>
          {label}
        </label>
        <p className="setting-row__hint">{hint}</p>
      </div>
      {draft === undefined ? (
        <div className="folder-field">
          <code className="folder-field__path" id={inputId} data-testid={testId}>
            {current}
          </code>
          <button type="button" className="button" disabled={disabled} onClick={() => setDraft(current)}>
            Change…
          </button>
        </div>
      ) : (
        <form
          className="folder-field"
          onSubmit={(event) => {
            event.preventDefault();
            if (draft.trim() && draft.trim() !== current) onChange(draft.trim());
            setDraft(undefined);
          }}
        >
          <input
            id={inputId}
            className="input folder-field__input"
            value={draft}
            autoFocus
            spellCheck={false}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button type="submit" className="button button--primary" disabled={disabled}>
            Save
          </button>
          <button type="button" className="button" onClick={() => setDraft(undefined)}>
            Cancel
          </button>
        </form>
      )}
    </div>
  );
}
