// The one-time look at the beginning of a log the tail feed starts following at its end: the
// `Setting user:` line was written when the game started, long before.
import { open } from 'node:fs/promises';
import { readLogLine } from './log-line.js';

/** The game names the user within its first lines; this bounds the read on a huge log without one. */
export const PLAYER_NAME_SCAN_BYTES = 4 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

/** The user named by the first complete `Setting user:` line in the first bytes of `file`; throws when the file cannot be read. */
export async function scanPlayerName(file: string, maxBytes = PLAYER_NAME_SCAN_BYTES): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let offset = 0;
    let partial = '';
    while (offset < maxBytes) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK_BYTES, maxBytes - offset), offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
      const lines = (partial + buffer.toString('latin1', 0, bytesRead)).split('\n');
      partial = lines.pop()!;
      const name = firstUser(lines);
      if (name !== undefined) return name;
    }
    // A last line without its newline may still be being written: the tail feed delivers it once complete.
    return undefined;
  } finally {
    await handle.close();
  }
}

function firstUser(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const read = readLogLine(line);
    if (read.kind === 'user') return read.name;
  }
  return undefined;
}
