import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';

interface DialogProps {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  /** A destructive confirmation is drawn in the danger colour. */
  danger?: boolean;
  /** The confirm button is disabled while this is false. */
  canConfirm?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  testId?: string;
}

/** A native modal dialog with Cancel and a confirm button; Escape cancels, Enter in a field confirms. */
export function Dialog({ title, children, confirmLabel, danger = false, canConfirm = true, onConfirm, onCancel, testId }: DialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canConfirm) onConfirm();
  };

  return (
    <dialog ref={dialogRef} className="modal library-dialog" aria-labelledby={titleId} onClose={onCancel} data-testid={testId}>
      <form onSubmit={submit} className="library-dialog__form">
        <h2 className="modal__title" id={titleId}>
          {title}
        </h2>
        {children}
        <div className="modal__actions">
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button
            type="submit"
            className={danger ? 'button button--danger' : 'button button--primary'}
            disabled={!canConfirm}
            data-testid="dialog-confirm"
          >
            {confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
