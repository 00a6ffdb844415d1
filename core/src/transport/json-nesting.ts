// How deeply a JSON text nests, found without parsing it: JSON.parse, validation and logging all
// recurse over what they are given, so a frame nested thousands deep is refused before any of them.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/** True when `text` opens more than `limit` arrays or objects inside one another; brackets inside strings do not count. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === BACKSLASH) index++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) {
      inString = true;
    } else if (OPENERS.has(char)) {
      if (++depth > limit) return true;
    } else if (CLOSERS.has(char)) {
      depth--;
    }
  }
  return false;
}
