// Keybindings store Windows virtual-key codes (modifiers plus one key); the browser reports
// `KeyboardEvent.code`. This maps between the two and names a code for display.

const MODIFIERS = [
  { code: 17, name: 'Ctrl', held: (event: KeyboardEvent) => event.ctrlKey },
  { code: 16, name: 'Shift', held: (event: KeyboardEvent) => event.shiftKey },
  { code: 18, name: 'Alt', held: (event: KeyboardEvent) => event.altKey },
] as const;

const NAMED_KEYS: Readonly<Record<string, readonly [number, string]>> = {
  Space: [32, 'Space'],
  Enter: [13, 'Enter'],
  Tab: [9, 'Tab'],
  Backspace: [8, 'Backspace'],
  Insert: [45, 'Insert'],
  Delete: [46, 'Delete'],
  Home: [36, 'Home'],
  End: [35, 'End'],
  PageUp: [33, 'Page Up'],
  PageDown: [34, 'Page Down'],
  ArrowLeft: [37, '←'],
  ArrowUp: [38, '↑'],
  ArrowRight: [39, '→'],
  ArrowDown: [40, '↓'],
  Pause: [19, 'Pause'],
  PrintScreen: [44, 'Print Screen'],
  ScrollLock: [145, 'Scroll Lock'],
  Minus: [189, '-'],
  Equal: [187, '='],
  BracketLeft: [219, '['],
  BracketRight: [221, ']'],
  Backslash: [220, '\\'],
  Semicolon: [186, ';'],
  Quote: [222, "'"],
  Comma: [188, ','],
  Period: [190, '.'],
  Slash: [191, '/'],
  Backquote: [192, '`'],
  NumpadMultiply: [106, 'Num *'],
  NumpadAdd: [107, 'Num +'],
  NumpadSubtract: [109, 'Num -'],
  NumpadDecimal: [110, 'Num .'],
  NumpadDivide: [111, 'Num /'],
};

function keyOf(code: string): readonly [number, string] | undefined {
  const letter = /^Key([A-Z])$/.exec(code)?.[1];
  if (letter) return [letter.charCodeAt(0), letter];
  const digit = /^Digit(\d)$/.exec(code)?.[1];
  if (digit) return [48 + Number(digit), digit];
  const numpad = /^Numpad(\d)$/.exec(code)?.[1];
  if (numpad) return [96 + Number(numpad), `Num ${numpad}`];
  const functionKey = /^F(\d{1,2})$/.exec(code)?.[1];
  if (functionKey && Number(functionKey) >= 1 && Number(functionKey) <= 24) return [111 + Number(functionKey), `F${functionKey}`];
  return NAMED_KEYS[code];
}

/** The virtual-key codes of a key press (modifiers first), or undefined for a lone modifier or an unknown key. */
export function virtualKeysOf(event: KeyboardEvent): number[] | undefined {
  const key = keyOf(event.code);
  if (!key) return undefined;
  return [...MODIFIERS.filter((modifier) => modifier.held(event)).map((modifier) => modifier.code), key[0]];
}

const NAMES_BY_CODE = new Map<number, string>([
  ...MODIFIERS.map((modifier) => [modifier.code, modifier.name] as const),
  ...Object.values(NAMED_KEYS).map(([code, name]) => [code, name] as const),
]);

function nameOf(code: number): string {
  if (code >= 65 && code <= 90) return String.fromCharCode(code);
  if (code >= 48 && code <= 57) return String(code - 48);
  if (code >= 96 && code <= 105) return `Num ${code - 96}`;
  if (code >= 112 && code <= 135) return `F${code - 111}`;
  return NAMES_BY_CODE.get(code) ?? `Key ${code}`;
}

/** `Ctrl + Shift + F9`. */
export function describeKeys(keys: readonly number[]): string {
  return keys.length === 0 ? 'Not set' : keys.map(nameOf).join(' + ');
}
