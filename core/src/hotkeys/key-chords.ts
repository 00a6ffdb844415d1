// Keybindings as settings store them (Windows virtual-key codes: modifiers plus one key) turned
// into chords the global hook can match: the hook's key code and the exact modifiers held.

export interface KeyChord {
  /** Key code of the hook library (libuiohook scan-code numbering). */
  keycode: number;
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
  meta: boolean;
}

/** One key going down, as the hook reports it. */
export interface KeyPress {
  keycode: number;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

export type ChordResult = { chord: KeyChord } | { problem: string };

type Modifier = 'ctrl' | 'alt' | 'shift' | 'meta';
const MODIFIERS = new Map<number, Modifier>([
  [0x10, 'shift'],
  [0xa0, 'shift'],
  [0xa1, 'shift'],
  [0x11, 'ctrl'],
  [0xa2, 'ctrl'],
  [0xa3, 'ctrl'],
  [0x12, 'alt'],
  [0xa4, 'alt'],
  [0xa5, 'alt'],
  [0x5b, 'meta'],
  [0x5c, 'meta'],
]);
const MODIFIER_NAMES: Record<Modifier, string> = { ctrl: 'Ctrl', alt: 'Alt', shift: 'Shift', meta: 'Win' };

/** Virtual-key code -> [hook key code, name]. */
const KEYS = new Map<number, [number, string]>([
  [0x08, [14, 'Backspace']],
  [0x09, [15, 'Tab']],
  [0x0d, [28, 'Enter']],
  [0x13, [3653, 'Pause']],
  [0x14, [58, 'CapsLock']],
  [0x1b, [1, 'Escape']],
  [0x20, [57, 'Space']],
  [0x21, [3657, 'PageUp']],
  [0x22, [3665, 'PageDown']],
  [0x23, [3663, 'End']],
  [0x24, [3655, 'Home']],
  [0x25, [57419, 'Left']],
  [0x26, [57416, 'Up']],
  [0x27, [57421, 'Right']],
  [0x28, [57424, 'Down']],
  [0x2c, [3639, 'PrintScreen']],
  [0x2d, [3666, 'Insert']],
  [0x2e, [3667, 'Delete']],
  [0x6a, [55, 'NumpadMultiply']],
  [0x6b, [78, 'NumpadAdd']],
  [0x6d, [74, 'NumpadSubtract']],
  [0x6e, [83, 'NumpadDecimal']],
  [0x6f, [3637, 'NumpadDivide']],
  [0x90, [69, 'NumLock']],
  [0x91, [70, 'ScrollLock']],
  [0xba, [39, ';']],
  [0xbb, [13, '=']],
  [0xbc, [51, ',']],
  [0xbd, [12, '-']],
  [0xbe, [52, '.']],
  [0xbf, [53, '/']],
  [0xc0, [41, '`']],
  [0xdb, [26, '[']],
  [0xdc, [43, '\\']],
  [0xdd, [27, ']']],
  [0xde, [40, "'"]],
]);
const DIGITS = [11, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const NUMPAD_DIGITS = [82, 79, 80, 81, 75, 76, 77, 71, 72, 73];
const LETTERS = [30, 48, 46, 32, 18, 33, 34, 35, 23, 36, 37, 38, 50, 49, 24, 25, 16, 19, 31, 20, 22, 47, 17, 45, 21, 44];
const FUNCTION_KEYS = [59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 87, 88, 91, 92, 93, 99, 100, 101, 102, 103, 104, 105, 106, 107];
DIGITS.forEach((code, digit) => KEYS.set(0x30 + digit, [code, String(digit)]));
NUMPAD_DIGITS.forEach((code, digit) => KEYS.set(0x60 + digit, [code, `Numpad${digit}`]));
LETTERS.forEach((code, index) => KEYS.set(0x41 + index, [code, String.fromCharCode(0x41 + index)]));
FUNCTION_KEYS.forEach((code, index) => KEYS.set(0x70 + index, [code, `F${index + 1}`]));

/** The chord of a binding's keys, or why it cannot be one (no key, two keys, an unknown code). */
export function chordOf(keys: readonly number[]): ChordResult {
  const chord: KeyChord = { keycode: -1, ctrl: false, alt: false, shift: false, meta: false };
  for (const key of keys) {
    const modifier = MODIFIERS.get(key);
    if (modifier) {
      chord[modifier] = true;
      continue;
    }
    const mapped = KEYS.get(key);
    if (!mapped) return { problem: `virtual-key code ${key} is not a key global hotkeys support` };
    if (chord.keycode !== -1) return { problem: 'a keybinding holds one key besides Ctrl, Alt, Shift and Win' };
    chord.keycode = mapped[0];
  }
  if (chord.keycode === -1) return { problem: 'a keybinding needs one key besides Ctrl, Alt, Shift and Win' };
  return { chord };
}

/** True when `press` is the chord's key with exactly its modifiers held. */
export function chordMatches(chord: KeyChord, press: KeyPress): boolean {
  return (
    press.keycode === chord.keycode &&
    press.ctrlKey === chord.ctrl &&
    press.altKey === chord.alt &&
    press.shiftKey === chord.shift &&
    press.metaKey === chord.meta
  );
}

/** `Ctrl+Shift+F8`, for logs and messages. */
export function describeKeys(keys: readonly number[]): string {
  const modifiers = (['ctrl', 'alt', 'shift', 'meta'] as const)
    .filter((modifier) => keys.some((key) => MODIFIERS.get(key) === modifier))
    .map((modifier) => MODIFIER_NAMES[modifier]);
  const others = keys.filter((key) => !MODIFIERS.has(key)).map((key) => KEYS.get(key)?.[1] ?? `key ${key}`);
  return [...modifiers, ...others].join('+') || '(no key)';
}
