// Test support: writes War Thunder client logs (`.clog`) the way the game does, encoded independently
// of combat-log.ts from the format in reference-implementation.md §8.11, so a wrong key in the decoder
// cannot go unnoticed.
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';

// The key as the reference lists it (decimal bytes), XORed cyclically over the whole file.
const REFERENCE_KEY = (
  '130,135,151,64,141,139,70,11,187,115,148,3,229,179,131,83,105,107,131,218,149,175,74,35,135,229,151,172,36,88,175,54,78,225,' +
  '90,249,241,1,75,177,173,182,76,76,250,116,40,105,194,139,17,23,213,182,71,206,179,183,205,85,254,249,193,36,255,174,144,46,73,' +
  '108,78,9,146,129,78,103,188,107,156,222,177,15,104,186,139,128,68,5,135,94,243,78,254,9,151,50,192,173,159,233,187,253,77,6,145,' +
  '80,137,110,224,232,238,153,83,0,60,166,184,34,65,50,177,189,245,40,80,224,114,174'
)
  .split(',')
  .map(Number);

export function encodeClog(text: string): Buffer {
  const plain = Buffer.from(text, 'utf8');
  return Buffer.from(plain.map((byte, index) => byte ^ REFERENCE_KEY[index % REFERENCE_KEY.length]!));
}

/** A log of a session in which `nickname` logged in, shaped like the game's own lines. */
export function loggedInSession(nickname: string): string {
  return [
    '0.012 [I]  $07 start logging',
    '1.204 [D]  $07 yuplay: login by stored token',
    `1.876 [D]  $07 ${nickname}[87654321] successfully passed yuplay authorization, use jwt token`,
    '2.310 [D]  $07 char: logged in, session ready',
    '',
  ].join('\n');
}

/** Writes `<folder>/<name>` encoded, with the given modification time (newest wins). */
export async function writeClog(folder: string, name: string, text: string, modified = new Date()): Promise<string> {
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, name);
  await writeFile(file, encodeClog(text));
  await utimes(file, modified, modified);
  return file;
}
