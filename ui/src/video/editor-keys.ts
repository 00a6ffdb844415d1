// The video editor's keys at page level, as editors and players people know have them. J and L jump
// one second back and forward (the browser's player cannot play backwards, so J/L shuttle is out:
// a jump does the same job for short game clips); `,` and `.` step one frame.
import { useEffect, useRef } from 'react';

export type EditorAction =
  | 'togglePlay'
  | 'secondBack'
  | 'secondForward'
  | 'frameBack'
  | 'frameForward'
  | 'setIn'
  | 'setOut'
  | 'addBookmark'
  | 'removeSelection'
  | 'toggleKeyLegend';

/** The keys (as `KeyboardEvent.key`, letters in lower case) and what they do, in the legend's order. */
export const EDITOR_KEYS: readonly { keys: readonly string[]; action: EditorAction; label: string; shown: string }[] = [
  { keys: [' ', 'k'], action: 'togglePlay', shown: 'Space / K', label: 'Play or pause' },
  { keys: ['j'], action: 'secondBack', shown: 'J', label: 'Back 1 second' },
  { keys: ['l'], action: 'secondForward', shown: 'L', label: 'Forward 1 second' },
  { keys: [','], action: 'frameBack', shown: ',', label: 'Previous frame' },
  { keys: ['.'], action: 'frameForward', shown: '.', label: 'Next frame' },
  { keys: ['i'], action: 'setIn', shown: 'I', label: 'Start the range here' },
  { keys: ['o'], action: 'setOut', shown: 'O', label: 'End the range here' },
  { keys: ['b'], action: 'addBookmark', shown: 'B', label: 'Bookmark here' },
  { keys: ['Delete', 'Backspace'], action: 'removeSelection', shown: 'Delete', label: 'Remove the range' },
  { keys: ['?'], action: 'toggleKeyLegend', shown: '?', label: 'Show or hide these keys' },
];

const TYPING = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';
/** Space and Enter keep activating the button or link that has the focus. */
const ACTIVATED_BY_SPACE = 'button, a[href], summary, [role="button"], [role="menuitem"], [role="checkbox"]';
const OPEN_DIALOG = 'dialog[open], [aria-modal="true"]';

/** The action of a key press, or undefined when the key is not the editor's here (typing, a dialog, a shortcut of the browser). */
export function editorActionOf(event: KeyboardEvent): EditorAction | undefined {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return undefined;
  const target = event.target instanceof Element ? event.target : undefined;
  if (target?.closest(TYPING) || document.querySelector(OPEN_DIALOG)) return undefined;
  if (event.key === ' ' && target?.closest(ACTIVATED_BY_SPACE)) return undefined;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  return EDITOR_KEYS.find((entry) => entry.keys.includes(key))?.action;
}

/** Runs the action of each editor key pressed on the page while the calling component is shown. */
export function useEditorKeys(actions: Record<EditorAction, () => void>): void {
  // The latest actions (they close over the latest state), behind one listener.
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const action = editorActionOf(event);
      if (!action) return;
      event.preventDefault();
      latest.current[action]();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
