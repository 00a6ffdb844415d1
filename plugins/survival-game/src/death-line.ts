// Recognises the local player's death in one line of Rust's client log. Pure; never throws.
//
// Lines look like `2026-03-21T05:34:35.817Z|0x2a7c|You died: killed by Suicide`: a timestamp, a thread
// id and the console message. Only the message is matched, and only at its start, so a line that merely
// mentions the words (someone's chat message, say) is not a death.

const LINE_PREFIX = /^\d{4}-\d{2}-\d{2}T[^|]*\|[^|]*\|/;
const DEATH_MESSAGE = /^you died\b/i;

/** True when the line is the client telling the local player "You died". */
export function isDeathLine(line: string): boolean {
  // trim() also drops a byte-order mark left on the first line of a new file.
  const message = line.trim().replace(LINE_PREFIX, '').trimStart();
  return DEATH_MESSAGE.test(message);
}
