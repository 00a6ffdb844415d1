import { useEffect, useId } from 'react';
import { EDITOR_KEYS } from './editor-keys';

interface KeyLegendProps {
  open: boolean;
  onToggle: () => void;
}

/** A "?" button that shows the editor's keys (the `?` key does too; Escape hides them). */
export function KeyLegend({ open, onToggle }: KeyLegendProps) {
  const panelId = useId();
  useEffect(() => {
    if (!open) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onToggle();
    };
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [open, onToggle]);
  return (
    <div className="key-legend">
      <button
        type="button"
        className="button button--small"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={onToggle}
        data-testid="key-legend-toggle"
      >
        <span aria-hidden="true">?</span> Keys
      </button>
      {open && (
        <div className="key-legend__panel" id={panelId} role="region" aria-label="Editor keys" data-testid="key-legend">
          <dl className="key-legend__list">
            {EDITOR_KEYS.map((entry) => (
              <div key={entry.action} className="key-legend__row">
                <dt>
                  <kbd>{entry.shown}</kbd>
                </dt>
                <dd>{entry.label}</dd>
              </div>
            ))}
          </dl>
          <p className="video-page__muted">
            Arrow keys move a focused range handle by a frame (with Shift, a second) and the playhead by a second (with Shift, five). Ctrl +
            wheel zooms the timeline.
          </p>
        </div>
      )}
    </div>
  );
}
