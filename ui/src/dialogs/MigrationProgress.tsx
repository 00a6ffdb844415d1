import type { EventContentMap } from '@keyframe/core/protocol';
import { useState } from 'react';
import { useServerEvent } from '../connection';
import { useLatestEvent } from '../state/latest-events';

/** Start-up data migrations: the app waits behind this overlay until they are done. */
export function MigrationOverlay() {
  const status = useLatestEvent('MigrationStatus');
  if (!status?.isRunning) return null;
  return (
    <div
      className="migration-overlay"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="migration-title"
      aria-busy="true"
      data-testid="migration-overlay"
    >
      <span className="spinner" aria-hidden="true" />
      <h2 className="notice__title" id="migration-title">
        Updating your data…
      </h2>
      <p className="notice__text">{status.currentMigration ?? 'Preparing'}. Keyframe is ready in a moment.</p>
    </div>
  );
}

type ContentMigration = EventContentMap['ContentMigrationProgress'];

/** `MigrateContent` runs: which file, how far, and the outcome until dismissed. */
export function ContentMigrationCard() {
  const [migration, setMigration] = useState<ContentMigration>();
  useServerEvent('ContentMigrationProgress', setMigration);
  if (!migration) return null;
  const failed = migration.status === 'error' || migration.progress < 0;
  const finished = failed || migration.status === 'done';
  const counter = migration.totalFiles
    ? ` (${Math.min(migration.totalFiles, (migration.currentFileIndex ?? 0) + 1)} of ${migration.totalFiles})`
    : '';
  return (
    <section
      className={`migration-card${failed ? ' migration-card--error' : ''}`}
      aria-label="Moving videos"
      role="status"
      data-testid="content-migration"
    >
      <p className="migration-card__title">{finished ? (failed ? 'Moving videos failed' : 'Videos moved') : `Moving videos${counter}`}</p>
      <p className="migration-card__text">{migration.message ?? migration.fileName}</p>
      {!finished && <progress className="migration-card__bar" max={100} value={Math.max(0, migration.progress)} />}
      {finished && (
        <button type="button" className="button button--small" onClick={() => setMigration(undefined)}>
          Dismiss
        </button>
      )}
    </section>
  );
}
