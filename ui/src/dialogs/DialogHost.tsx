import { useState } from 'react';
import { useEventQueue, useServerEvent } from '../connection';
import { useLatestEvent } from '../state/latest-events';
import { ModalDialog } from './ModalDialog';
import { ContentMigrationCard, MigrationOverlay } from './MigrationProgress';
import { ModalFrame } from './ModalFrame';
import { RecoveryDialog } from './RecoveryDialog';
import { ReleaseNotesList } from './ReleaseNotesList';
import { notesSince } from './release-notes';
import { StorageWarningDialog } from './StorageWarningDialog';

/** Every dialog the backend can ask for, each shown one at a time in the order it arrived. */
export function DialogHost() {
  const [modals, removeModal] = useEventQueue('ShowModal');
  const [warnings, removeWarning] = useEventQueue('StorageWarning');
  const [prompts, removePrompt] = useEventQueue('RecoveryPrompt');
  const [modal] = modals;
  const [warning] = warnings;
  const [prompt] = prompts;
  return (
    <>
      <MigrationOverlay />
      <ContentMigrationCard />
      {prompt && <RecoveryDialog key={prompt.id} prompt={prompt.content} onDone={() => removePrompt(prompt.id)} />}
      {warning && <StorageWarningDialog key={warning.id} warning={warning.content} onAnswered={() => removeWarning(warning.id)} />}
      <ReleaseNotesDialog />
      {modal && <ModalDialog key={modal.id} modal={modal.content} onDismiss={() => removeModal(modal.id)} />}
    </>
  );
}

/** `ShowReleaseNotes`: what changed since the version the user updated from. */
function ReleaseNotesDialog() {
  const [version, setVersion] = useState<string>();
  const notes = useLatestEvent('ReleaseNotes')?.releaseNotesList ?? [];
  const running = useLatestEvent('AppVersion')?.version;
  useServerEvent('ShowReleaseNotes', setVersion);
  if (version === undefined) return null;
  return (
    <ModalFrame
      title="What’s new"
      subtitle={`Changes since version ${version}`}
      className="modal--wide"
      testId="release-notes-dialog"
      onClose={() => setVersion(undefined)}
    >
      <div className="modal__scroll">
        <ReleaseNotesList notes={notesSince(notes, version, running)} />
      </div>
      <form method="dialog" className="modal__actions">
        <button type="submit" className="button button--primary" autoFocus>
          Close
        </button>
      </form>
    </ModalFrame>
  );
}
