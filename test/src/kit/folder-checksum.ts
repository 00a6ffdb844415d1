// One SHA-256 over a folder tree (names, kinds, link targets and file contents), to prove that a
// run changed nothing in it; and the listing it covers, to show what did change.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';

/** `folder a`, `file a/b.mp4 1234`, `link a/c -> /target`, sorted; links are not followed. */
export async function folderListing(folder: string): Promise<string[]> {
  const listing: string[] = [];
  for (const relative of (await readdir(folder, { recursive: true })).sort()) {
    const file = path.join(folder, relative);
    const info = await lstat(file);
    if (info.isSymbolicLink()) listing.push(`link ${relative} -> ${await readlink(file)}`);
    else if (info.isDirectory()) listing.push(`folder ${relative}`);
    else listing.push(`file ${relative} ${info.size}`);
  }
  return listing;
}

/** Every file below `folder` (hidden ones too), relative, sorted; an absent folder has none. */
export async function filesBelow(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

export async function folderChecksum(folder: string): Promise<string> {
  const hash = createHash('sha256');
  for (const entry of await folderListing(folder)) {
    hash.update(`${entry}\0`);
    if (entry.startsWith('file ')) {
      const relative = entry.slice('file '.length, entry.lastIndexOf(' '));
      for await (const chunk of createReadStream(path.join(folder, relative))) hash.update(chunk as Buffer);
    }
  }
  return hash.digest('hex');
}
