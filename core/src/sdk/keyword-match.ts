// Does OCR text show a keyword? Short tokens (`+100`, `GOAL`) must appear exactly, since one wrong
// character in them is another word; longer ones tolerate OCR errors (the reference's rule).

/** Keywords up to this many characters need an exact (case-insensitive) match. */
export const EXACT_KEYWORD_MAX_LENGTH = 5;

/** Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Case-insensitive. A keyword of more than 5 characters also matches with at most length/4 edits
 * against a same-length stretch of the text: with spaces removed for a one-word keyword (OCR splits
 * words: `WAS TED`), or a run of as many words as a phrase has.
 */
export function containsKeyword(text: string, keyword: string): boolean {
  const haystack = text.toLowerCase();
  const needle = keyword.toLowerCase().trim();
  if (needle === '') return false;
  if (haystack.includes(needle)) return true;
  if (needle.length <= EXACT_KEYWORD_MAX_LENGTH) return false;
  const allowed = Math.floor(needle.length / 4);
  const needleWords = needle.split(/\s+/);
  if (needleWords.length === 1) {
    const joined = haystack.replace(/\s+/g, '');
    for (let start = 0; start + needle.length <= joined.length; start++) {
      if (editDistance(joined.slice(start, start + needle.length), needle) <= allowed) return true;
    }
    return false;
  }
  const words = haystack.split(/\s+/).filter((word) => word !== '');
  for (let start = 0; start + needleWords.length <= words.length; start++) {
    if (editDistance(words.slice(start, start + needleWords.length).join(' '), needle) <= allowed) return true;
  }
  return false;
}
