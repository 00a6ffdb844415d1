import { useEffect, useEffectEvent, useState } from 'react';
import { connection } from '../connection';
import { dismissToast, useToasts, type Toast, type ToastTone } from './toast-store';
import './event-toasts';
import './toasts.css';

/** How long a toast stays, unless the pointer or focus is on it: failures longer, to be read; a link, to be reached. */
const LIFETIME_MS = { success: 6_000, failure: 15_000 } as const satisfies Record<ToastTone, number>;
const WITH_LINK_MS = 12_000;

/** What succeeded and what failed, top right under the header (the jobs tray is bottom left). */
export function Toasts() {
  const toasts = useToasts();
  return (
    <div className="toasts" data-testid="toasts">
      {toasts.map((toast) => (
        <ToastCard key={toast.id} toast={toast} />
      ))}
    </div>
  );
}

function ToastCard({ toast }: { toast: Toast }) {
  const [held, setHeld] = useState(false);
  const dismiss = useEffectEvent(() => dismissToast(toast.id));
  const lifetime = Math.max(LIFETIME_MS[toast.tone], toast.link ? WITH_LINK_MS : 0);
  useEffect(() => {
    if (held) return;
    const timer = setTimeout(() => dismiss(), lifetime);
    return () => clearTimeout(timer);
  }, [held, lifetime]);

  return (
    <div
      className={`toast toast--${toast.tone}`}
      role={toast.tone === 'failure' ? 'alert' : 'status'}
      data-testid="toast"
      data-tone={toast.tone}
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(event) => setHeld(event.currentTarget.contains(event.relatedTarget))}
    >
      <div className="toast__body">
        <p className="toast__title">{toast.title}</p>
        {toast.body && <p className="toast__message">{toast.body}</p>}
        {toast.link && (
          <a
            className="button button--small toast__link"
            href={toast.link.href}
            {...(toast.link.external ? { target: '_blank', rel: 'noreferrer noopener' } : {})}
            onClick={(event) => {
              // As release-note links: the service opens the default browser (a desktop host's page cannot open windows).
              if (toast.link?.external && connection.send('OpenInBrowser', { Url: toast.link.href })) event.preventDefault();
              dismissToast(toast.id);
            }}
            data-testid="toast-link"
          >
            {toast.link.label}
          </a>
        )}
      </div>
      <button type="button" className="toast__close" aria-label={`Dismiss “${toast.title}”`} onClick={() => dismissToast(toast.id)}>
        ×
      </button>
    </div>
  );
}
