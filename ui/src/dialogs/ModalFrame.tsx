import { useEffect, useId, useRef, type ReactNode } from 'react';

interface ModalFrameProps {
  title: string;
  subtitle?: string;
  className?: string;
  testId: string;
  /** Escape, or the dialog closing any other way. */
  onClose: () => void;
  children: ReactNode;
}

/** A native modal dialog opened on mount: it traps focus, closes on Escape and returns focus when it closes. */
export function ModalFrame({ title, subtitle, className, testId, onClose, children }: ModalFrameProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  return (
    <dialog
      ref={dialogRef}
      className={className ? `modal ${className}` : 'modal'}
      aria-labelledby={titleId}
      onClose={onClose}
      data-testid={testId}
    >
      <h2 className="modal__title" id={titleId}>
        {title}
      </h2>
      {subtitle && <p className="modal__subtitle">{subtitle}</p>}
      {children}
    </dialog>
  );
}
