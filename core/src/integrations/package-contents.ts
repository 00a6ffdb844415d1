// The fingerprint a user approves: SHA-256 over every file of a plugin package (its own
// node_modules aside), so an update or a single changed byte asks again. Exact definition:
// docs/writing-an-integration.md, section 10.
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { othersCanWrite } from '../support/write-access.js';

export const MAX_PACKAGE_FILES = 5000;
export const MAX_PACKAGE_BYTES = 64 * 1024 * 1024;

export type PackageContents = { hash: string; files: number; bytes: number } | { problem: string };

interface PackageFile {
  relative: string;
  absolute: string;
}

/** Hashes the package at `root`; a problem instead when it is too big, holds a link, or others can change a file. */
export async function hashPackageContents(root: string): Promise<PackageContents> {
  const listing = await listFiles(root);
  if ('problem' in listing) return listing;
  const ordered = listing.sort((a, b) => Buffer.compare(Buffer.from(a.relative), Buffer.from(b.relative)));
  const hash = createHash('sha256');
  let bytes = 0;
  for (const file of ordered) {
    const content = await readFile(file.absolute);
    bytes += content.length;
    hash.update(file.relative).update('\0').update(String(content.length)).update('\0').update(content);
  }
  return { hash: hash.digest('hex'), files: ordered.length, bytes };
}

async function listFiles(root: string): Promise<PackageFile[] | { problem: string }> {
  const files: PackageFile[] = [];
  let total = 0;
  const pending = [''];
  while (pending.length > 0) {
    const folder = pending.pop()!;
    for (const entry of await readdir(path.join(root, folder), { withFileTypes: true })) {
      const relative = folder ? `${folder}/${entry.name}` : entry.name;
      const absolute = path.join(root, relative);
      if (entry.isDirectory() && entry.name === 'node_modules') continue;
      const info = await lstat(absolute);
      if (info.isSymbolicLink()) return { problem: `${absolute} is a symbolic link: its target cannot be vouched for` };
      const writable = othersCanWrite(info, { allowSticky: false });
      if (writable) return { problem: `${absolute}: ${writable}` };
      if (info.isDirectory()) pending.push(relative);
      else if (info.isFile()) {
        files.push({ relative, absolute });
        total += info.size;
      }
      if (files.length > MAX_PACKAGE_FILES || total > MAX_PACKAGE_BYTES) {
        return {
          problem: `the package is larger than ${MAX_PACKAGE_FILES} files or ${MAX_PACKAGE_BYTES / 1024 / 1024} MiB (its node_modules aside): too large to fingerprint`,
        };
      }
    }
  }
  return files;
}
