// A folder nobody may write to, for tests of refusals. Root writes anywhere, so for root the folder is
// also made immutable (`chattr +i`, Linux).
import { execFileSync } from 'node:child_process';
import { chmod } from 'node:fs/promises';

export async function makeReadOnly(folder: string): Promise<void> {
  await chmod(folder, 0o555);
  if (process.getuid?.() === 0) execFileSync('chattr', ['+i', folder]);
}

export async function undoReadOnly(folder: string): Promise<void> {
  if (process.getuid?.() === 0) execFileSync('chattr', ['-i', folder]);
  await chmod(folder, 0o755);
}
