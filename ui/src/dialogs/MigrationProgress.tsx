import type { EventContentMap } from '@keyframe/core/protocol';
import { useEffect, useState } from 'react';
import { useConnectionStatus, useServerEvent } from '../connection';

/**
 * Start-up data migrations: the app waits behind this overlay until they are done, reading what each one does
 * (`currentMigration` is a description; a service that sends none gets the general text only). It goes when
 * the connection does: a service that restarts sends nothing when no migration is left.
 */
export function MigrationOverlay() {
  const [running, setRunning] = useState<{ doing: string | null }>();
  const status = useConnectionStatus();
  useServerEvent('MigrationStatus', ({ isRunning, currentMigration }) => setRunning(isRunning ? { doing: currentMigration } : undefined));
  useEffect(() => {
    if (status !== 'open') setRunning(undefined);
  }, [status]);
  if (!running) return null;
  return (
    <div
      className="migration-overlay"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="migration-title"
      aria-describedby="migration-text"
      aria-busy="true"
      data-testid="migration-overlay"
    >
      <span className="spinner" aria-hidden="true" />
      <h2 className="notice__title" id="migration-title">
        Updating your data…
      </h2>
      <p className="notice__text" id="migration-text">
        Keyframe is bringing your library and settings up to date for this version. Ready in a moment.
      </p>
      {running.doing && (
        <p className="notice__text" data-testid="migration-step">
          {running.doing}…
        </p>
      )}
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
