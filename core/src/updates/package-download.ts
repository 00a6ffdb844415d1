// Fetching an update package to disk and checking it: the download (with whole-percent progress)
// and the SHA-256 check are separate steps, so the frontend sees `downloaded` before `ready`; the
// check reads the file again when the update is applied, as it may have changed on disk meanwhile.
import { rename, rm } from 'node:fs/promises';
import { downloadToFile, sameDigest, sha256OfFile } from '../support/download.js';

/**
 * Streams `url` to `target` (as `<target>.download` until complete). `onProgress` gets whole
 * percents, once each. A failed download leaves no file behind.
 */
export async function downloadPackage(url: string, target: string, onProgress: (percent: number) => void): Promise<void> {
  const partial = `${target}.download`;
  await downloadToFile(url, partial, onProgress).catch((error: Error) => {
    throw new Error(`Downloading the update from ${url} failed: ${error.message}.`);
  });
  await rename(partial, target);
}

/** Throws, after deleting `file`, when its SHA-256 is not `expected` (hex, any case). */
export async function verifyPackage(file: string, expected: string): Promise<void> {
  const actual = await sha256OfFile(file);
  if (sameDigest(actual, expected)) return;
  await rm(file, { force: true });
  throw new Error(
    `The downloaded update has SHA-256 ${actual}, not the ${expected.trim().toLowerCase()} the update channel announced; it was deleted and will not be installed.`,
  );
}
