import type { EventContentMap } from '@keyframe/core/protocol';
import { useEffect, useId, useRef } from 'react';

interface ModalDialogProps {
  modal: EventContentMap['ShowModal'];
  onDismiss: () => void;
}

/** A native modal dialog: it traps focus, closes on Escape, and returns focus when it closes. */
export function ModalDialog({ modal, onDismiss }: ModalDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  return (
    <dialog
      ref={dialogRef}
      className={`modal modal--${modal.type}`}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onClose={onDismiss}
    >
      <h2 className="modal__title" id={titleId}>{modal.title}</h2>
      {modal.subtitle && <p className="modal__subtitle">{modal.subtitle}</p>}
      <p className="modal__description" id={descriptionId}>{modal.description}</p>
      <form method="dialog" className="modal__actions">
        <button type="submit" className="button button--primary" autoFocus>
          OK
        </button>
      </form>
    </dialog>
  );
}
