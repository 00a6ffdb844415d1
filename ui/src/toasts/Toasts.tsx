import type { EventContentMap } from '@keyframe/core/protocol';
import { useEffect, useEffectEvent } from 'react';
import { useEventQueue } from '../connection';

const TOAST_LIFETIME_MS = 8_000;
const MAX_TOASTS = 4;

/** Brief notes for commands the backend refused. */
export function RejectionToasts() {
  const [toasts, dismiss] = useEventQueue('CommandRejected', MAX_TOASTS);

  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <RejectionToast key={toast.id} rejection={toast.content} onDismiss={() => dismiss(toast.id)} />
      ))}
    </div>
  );
}

interface RejectionToastProps {
  rejection: EventContentMap['CommandRejected'];
  onDismiss: () => void;
}

function RejectionToast({ rejection, onDismiss }: RejectionToastProps) {
  const dismissExpired = useEffectEvent(onDismiss);
  useEffect(() => {
    const timer = setTimeout(() => dismissExpired(), TOAST_LIFETIME_MS);
    return () => clearTimeout(timer);
  }, []);

  return (
    <div className="toast">
      <div className="toast__body">
        <p className="toast__title">{rejection.method ?? 'Message'} refused</p>
        <p className="toast__message">{rejection.message}</p>
      </div>
      <button type="button" className="toast__close" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
