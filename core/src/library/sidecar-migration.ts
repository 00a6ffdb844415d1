// Rewrites the library's version 1 sidecars as version 2 (content-sidecar.ts), keeping the originals until
// every rewritten file has been read back: each original is first copied to `<cache>/metadata-v1-backup/`,
// and that folder goes only after the whole run succeeded. A run that fails leaves the backup, logs where it
// is, and throws, so the migration is retried at the next start; meanwhile the library reads both versions.
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { TYPE_FOLDERS, type ContentType } from '../protocol/index.js';
import { writeFileAtomic } from '../support/atomic-file.js';
import type { Logger } from '../support/logger.js';
import { readSidecar } from './content-library.js';
import { encodeSidecar, SIDECAR_VERSION } from './content-sidecar.js';
import type { DataMigration } from './data-migrations.js';

export const SIDECARS_V2: DataMigration = {
  id: '0002_content_sidecars_v2',
  description: 'Updating the details of your videos to the new format',
  async run({ cacheFolder, logger }) {
    await migrateSidecars(path.join(cacheFolder, 'metadata'), logger);
  },
};

interface Pending {
  file: string;
  backup: string;
  original: string;
  encoded: string;
}

/** `write` is how a sidecar is replaced (a test makes it fail). */
export async function migrateSidecars(metadataFolder: string, logger: Logger, write = writeFileAtomic): Promise<void> {
  const backupFolder = `${metadataFolder}-v1-backup`;
  const pending = await pendingSidecars(metadataFolder, backupFolder, logger);
  if (pending.length === 0) {
    await rm(backupFolder, { recursive: true, force: true }); // what an earlier run kept, now all migrated
    return;
  }
  // Every original is safe before the first one is replaced.
  for (const { original, backup } of pending) await writeFileAtomic(backup, original);
  const failed: string[] = [];
  for (const item of pending) {
    try {
      await write(item.file, item.encoded);
      if ((await readFile(item.file, 'utf8')) !== item.encoded) throw new Error('the sidecar read back differs from the one written');
    } catch (error) {
      failed.push(item.file);
      logger.error('content sidecar not migrated', { file: item.file, error });
    }
  }
  if (failed.length > 0) {
    throw new Error(`${failed.length} of ${pending.length} content sidecars were not migrated; the originals are kept in ${backupFolder}`);
  }
  await rm(backupFolder, { recursive: true, force: true });
  logger.info('content sidecars migrated to version 2', { migrated: pending.length });
}

/** The version 1 sidecars the library would list, each with its rewrite; sidecars it skips are left as they are. */
async function pendingSidecars(metadataFolder: string, backupFolder: string, logger: Logger): Promise<Pending[]> {
  const pending: Pending[] = [];
  for (const [type, folder] of Object.entries(TYPE_FOLDERS) as [ContentType, string][]) {
    const names = await readdir(path.join(metadataFolder, folder)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    for (const name of names.filter((entry) => entry.endsWith('.json') && !entry.startsWith('.'))) {
      const file = path.join(metadataFolder, folder, name);
      const read = await readSidecar(file, type, logger);
      if (!read || read.version === SIDECAR_VERSION) continue;
      pending.push({
        file,
        backup: path.join(backupFolder, folder, name),
        original: await readFile(file, 'utf8'),
        encoded: encodeSidecar(read.record),
      });
    }
  }
  return pending;
}
