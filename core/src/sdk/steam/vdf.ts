// Reads the library list out of Steam's `steamapps/libraryfolders.vdf` (Valve KeyValues text).
// Pure: GamePaths reads the file, this turns its text into folders.

type KeyValues = Map<string, string | KeyValues[]>;

/**
 * The library folders listed in a `libraryfolders.vdf`, in file order, without duplicates.
 * Understands the current layout (`"0" { "path" "C:\\..." ... }`) and the pre-2021 one
 * (`"1" "D:\\SteamLibrary"`). Text that is not KeyValues gives an empty list; it never throws.
 */
export function parseSteamLibraryFolders(vdfText: string): string[] {
  const root = parseKeyValues(vdfText);
  const folders: string[] = [];
  for (const top of childBlocks(root)) {
    for (const [key, value] of top) {
      if (!/^\d+$/.test(key)) continue;
      if (typeof value === 'string') {
        folders.push(value);
        continue;
      }
      for (const library of value) {
        const path = library.get('path');
        if (typeof path === 'string') folders.push(path);
      }
    }
  }
  return [...new Set(folders.filter((folder) => folder.trim() !== ''))];
}

function childBlocks(node: KeyValues): KeyValues[] {
  return [...node.values()].flatMap((value) => (typeof value === 'string' ? [] : value));
}

/** A forgiving KeyValues reader: keys map to a string or to the blocks that used that key. */
function parseKeyValues(text: string): KeyValues {
  const tokens = tokenize(text);
  let index = 0;
  const readBlock = (): KeyValues => {
    const block: KeyValues = new Map();
    while (index < tokens.length) {
      const key = tokens[index++]!;
      if (key.kind === 'close') break;
      if (key.kind === 'open') continue; // a block without a key: nothing to name it by
      const value = tokens[index];
      if (value === undefined) break;
      if (value.kind === 'open') {
        index++;
        const child = readBlock();
        const existing = block.get(key.text);
        if (Array.isArray(existing)) existing.push(child);
        else block.set(key.text, [child]);
      } else if (value.kind === 'string') {
        index++;
        block.set(key.text, value.text);
      }
    }
    return block;
  };
  return readBlock();
}

const bareWord = /[^\s{}"]+/y;

type Token = { kind: 'open' } | { kind: 'close' } | { kind: 'string'; text: string };

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
    } else if (character === '"') {
      let value = '';
      position++;
      while (position < text.length && text[position] !== '"') {
        if (text[position] === '\\' && position + 1 < text.length) {
          const escaped = text[position + 1]!;
          value += escaped === 'n' ? '\n' : escaped === 't' ? '\t' : escaped;
          position += 2;
        } else {
          value += text[position++];
        }
      }
      position++;
      tokens.push({ kind: 'string', text: value });
    } else if (character === '[') {
      // A platform conditional such as [$WIN32]: it only qualifies the entry before it.
      const end = text.indexOf(']', position);
      position = end < 0 ? text.length : end + 1;
    } else {
      bareWord.lastIndex = position;
      const word = bareWord.exec(text)![0];
      tokens.push({ kind: 'string', text: word });
      position += word.length;
    }
  }
  return tokens;
}
