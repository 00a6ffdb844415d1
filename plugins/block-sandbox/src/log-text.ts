// Turns a log line into text. The game writes its log in the system's charset: UTF-8 on most
// systems, but GBK on a Chinese Windows and Windows-1252 on a western one. The tail feed hands the
// line over as latin1 (one character per byte, nothing lost), so the bytes can be decoded here.
const utf8 = new TextDecoder('utf-8', { fatal: true });
const gbk = new TextDecoder('gbk');
const windows1252 = new TextDecoder('windows-1252');

/**
 * The readings of a line whose bytes arrive as latin1 text: the line itself when it is ASCII, its
 * UTF-8 reading when that is valid, else both legacy readings (GBK and Windows-1252), since which
 * one the game used cannot be told from one line.
 */
export function readingsOfLine(latin1Line: string): string[] {
  if (!/[^\x00-\x7f]/.test(latin1Line)) return [latin1Line];
  const bytes = Buffer.from(latin1Line, 'latin1');
  try {
    return [utf8.decode(bytes)];
  } catch {
    return [gbk.decode(bytes), windows1252.decode(bytes)];
  }
}
