import type { EventContentMap } from '@keyframe/core/protocol';
import { ModalFrame } from './ModalFrame';

interface ModalDialogProps {
  modal: EventContentMap['ShowModal'];
  onDismiss: () => void;
}

/** One `ShowModal` from the backend: information, a warning or an error to acknowledge. */
export function ModalDialog({ modal, onDismiss }: ModalDialogProps) {
  return (
    <ModalFrame title={modal.title} subtitle={modal.subtitle} className={`modal--${modal.type}`} testId="show-modal" onClose={onDismiss}>
      <p className="modal__description">{modal.description}</p>
      <form method="dialog" className="modal__actions">
        <button type="submit" className="button button--primary" autoFocus>
          OK
        </button>
      </form>
    </ModalFrame>
  );
}
