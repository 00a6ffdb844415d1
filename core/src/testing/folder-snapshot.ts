// What a folder holds, byte for byte: a test compares two snapshots to prove that a job left nothing behind.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** `folder <relative>` and `file <relative> <sha256>` for everything below `folder` (hidden entries too), sorted; none for an absent folder. */
export async function folderSnapshot(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const lines = await Promise.all(
    entries.map(async (entry) => {
      const file = path.join(entry.parentPath, entry.name);
      const relative = path.relative(folder, file);
      if (!entry.isFile()) return `folder ${relative}`;
      return `file ${relative} ${createHash('sha256')
        .update(await readFile(file))
        .digest('hex')}`;
    }),
  );
  return lines.sort();
}
