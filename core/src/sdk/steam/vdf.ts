// Valve's KeyValues text ("VDF"): libraryfolders.vdf, loginusers.vdf, appmanifest_<id>.acf, and many
// games' own configs. Pure: the caller reads the file (through GameFiles, so tapes keep it).

/** A KeyValues block: each key holds a string or a nested block. */
export interface VdfObject {
  [key: string]: string | VdfObject;
}

type Token = { kind: 'open' } | { kind: 'close' } | { kind: 'text'; text: string };

/**
 * Parses KeyValues text: quoted and unquoted tokens, `\n \t \\ \"` escapes in quoted ones, `//`
 * comments, nested `{ }` blocks. A conditional after an entry (`[$WIN32]`) is ignored, the entry kept.
 * A key given twice: blocks are merged, otherwise the last value wins. Forgiving: text that is not
 * KeyValues gives what could be read (often `{}`); it never throws.
 */
export function parseVdf(text: string): VdfObject {
  const tokens = tokenize(text);
  let index = 0;
  const readBlock = (): VdfObject => {
    const block: VdfObject = {};
    while (index < tokens.length) {
      const key = tokens[index++]!;
      if (key.kind === 'close') break;
      if (key.kind === 'open') continue; // a block without a key: nothing to name it by
      const value = tokens[index];
      if (value === undefined || value.kind === 'close') break;
      index++;
      if (value.kind === 'open') {
        const child = readBlock();
        const existing = block[key.text];
        set(block, key.text, typeof existing === 'object' ? { ...existing, ...child } : child);
      } else {
        set(block, key.text, value.text);
      }
    }
    return block;
  };
  return readBlock();
}

/** The value of `key` in `block`, its case ignored (Steam writes `LibraryFolders` and `libraryfolders`). */
export function vdfValue(block: VdfObject | undefined, key: string): string | VdfObject | undefined {
  if (block === undefined) return undefined;
  const wanted = key.toLowerCase();
  const found = Object.keys(block).find((candidate) => candidate.toLowerCase() === wanted);
  return found === undefined ? undefined : block[found];
}

/** Defined, not assigned: a key named `__proto__` stays a key. */
function set(block: VdfObject, key: string, value: string | VdfObject): void {
  Object.defineProperty(block, key, { value, enumerable: true, writable: true, configurable: true });
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', '"': '"' };
const bareWord = /[^\s{}"[\]]+/y;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  while (position < text.length) {
    const character = text[position]!;
    if (/\s/.test(character)) {
      position++;
    } else if (text.startsWith('//', position)) {
      const end = text.indexOf('\n', position);
      position = end < 0 ? text.length : end + 1;
    } else if (character === '{' || character === '}') {
      tokens.push(character === '{' ? { kind: 'open' } : { kind: 'close' });
      position++;
    } else if (character === '[') {
      // A platform conditional such as [$WIN32]: it qualifies the entry before it, which is kept.
      const end = text.indexOf(']', position);
      position = end < 0 ? text.length : end + 1;
    } else if (character === '"') {
      let value = '';
      position++;
      while (position < text.length && text[position] !== '"') {
        const escaped = text[position] === '\\' ? ESCAPES[text[position + 1] ?? ''] : undefined;
        value += escaped ?? text[position];
        position += escaped === undefined ? 1 : 2;
      }
      position++;
      tokens.push({ kind: 'text', text: value });
    } else {
      bareWord.lastIndex = position;
      const word = bareWord.exec(text)?.[0] ?? character;
      tokens.push({ kind: 'text', text: word });
      position += word.length;
    }
  }
  return tokens;
}
