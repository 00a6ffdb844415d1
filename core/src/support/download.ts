// Downloads to disk with whole-percent progress and the file's SHA-256 computed on the way, so a
// caller can check what arrived before trusting it (a capture engine, an update package).
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Streams `url` into `file` (the caller's temporary name; readable by the user only) and returns its
 * SHA-256, hex. `onProgress` gets whole percents, each once. A failed download leaves no file; it is
 * not retried (the next start or check tries again).
 */
export async function downloadToFile(url: string, file: string, onProgress?: (percent: number) => void): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  const hash = createHash('sha256');
  let lastPercent = -1;
  // Loaded here, not at start-up: importing got costs a tenth of a second of every start.
  const { default: got } = await import('got');
  const stream = got.stream(url, { timeout: { connect: 15_000, response: 30_000, socket: 60_000 }, retry: { limit: 0 } });
  stream.on('downloadProgress', ({ percent }: { percent: number }) => {
    const whole = Math.floor(Math.min(1, Math.max(0, percent)) * 100);
    if (whole === lastPercent) return;
    lastPercent = whole;
    onProgress?.(whole);
  });
  const output = createWriteStream(file, { mode: 0o600 });
  try {
    await pipeline(
      stream,
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      }),
      output,
    );
  } catch (error) {
    // The file may still be opening when the download fails: removed once it is closed, or it would stay.
    if (!output.closed) await new Promise<void>((resolve) => output.once('close', () => resolve()));
    await rm(file, { force: true });
    throw error;
  }
  return hash.digest('hex');
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Hex digests compare without regard to case or surrounding blanks. */
export function sameDigest(actual: string, expected: string): boolean {
  return actual.toLowerCase() === expected.trim().toLowerCase();
}
