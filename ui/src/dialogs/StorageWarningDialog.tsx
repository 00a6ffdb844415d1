import type { EventContentMap } from '@keyframe/core/protocol';
import { useRef } from 'react';
import { connection } from '../connection';
import { ModalFrame } from './ModalFrame';

type StorageWarning = EventContentMap['StorageWarning'];

interface StorageWarningDialogProps {
  warning: StorageWarning;
  onAnswered: () => void;
}

/** Asks whether to go on with an action that runs into the storage limit; Escape cancels. */
export function StorageWarningDialog({ warning, onAnswered }: StorageWarningDialogProps) {
  // Answered once: the dialog's close event may follow the button that answered it.
  const answered = useRef(false);
  const answer = (confirmed: boolean) => {
    if (answered.current) return;
    answered.current = true;
    connection.send('StorageWarningConfirm', {
      warningId: warning.warningId,
      confirmed,
      action: warning.action,
      actionData: warning.actionData,
    });
    onAnswered();
  };
  return (
    <ModalFrame title={warning.title} className="modal--warning" testId="storage-warning" onClose={() => answer(false)}>
      <p className="modal__description">{warning.description}</p>
      <div className="modal__actions">
        <button type="button" className="button" onClick={() => answer(false)} data-testid="storage-warning-cancel">
          {warning.cancelText}
        </button>
        <button
          type="button"
          className="button button--primary"
          autoFocus
          onClick={() => answer(true)}
          data-testid="storage-warning-confirm"
        >
          {warning.confirmText}
        </button>
      </div>
    </ModalFrame>
  );
}
