import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

export interface MenuAction {
  label: string;
  /** May resolve with a short note for the person ("Link copied"), shown beside the button for a moment. */
  onSelect: () => void | Promise<string>;
  danger?: boolean;
  disabled?: boolean;
}

interface ActionsMenuProps {
  label: string;
  actions: readonly MenuAction[];
}

const NOTE_MS = 3000;

/** A "more actions" button with a menu of actions; arrow keys move, Escape or leaving closes it, focus returns to the button. */
export function ActionsMenu({ label, actions }: ActionsMenuProps) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<string>();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    rootRef.current?.querySelector<HTMLButtonElement>('[role="menuitem"]:not(:disabled)')?.focus();
    const closeOutside = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  useEffect(() => {
    if (note === undefined) return;
    const timer = setTimeout(() => setNote(undefined), NOTE_MS);
    return () => clearTimeout(timer);
  }, [note]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const items = [...(rootRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not(:disabled)') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    const next = event.key === 'ArrowDown' ? (index + 1) % items.length : (index - 1 + items.length) % items.length;
    items[next]?.focus();
  };

  return (
    <div
      className="actions-menu"
      ref={rootRef}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        // Tabbing out of the menu closes it.
        if (!rootRef.current?.contains(event.relatedTarget)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        data-testid="actions-menu-button"
      >
        <span aria-hidden="true">⋯</span>
      </button>
      <span className="actions-menu__note" role="status" data-testid="actions-menu-note">
        {note}
      </span>
      {open && (
        <div className="actions-menu__list" role="menu" id={menuId}>
          {actions.map((action) => (
            <button
              key={action.label}
              type="button"
              role="menuitem"
              className={action.danger ? 'actions-menu__item actions-menu__item--danger' : 'actions-menu__item'}
              disabled={action.disabled}
              onClick={() => {
                close();
                const result = action.onSelect();
                if (result instanceof Promise) void result.then(setNote);
              }}
            >
              {action.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
