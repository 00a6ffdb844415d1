// A file that takes `bytes` on the disk at once, without writing them (`fallocate`): what the storage
// limit counts, where a sparse file (truncate) counts nothing. Linux only, as the test machines are.
import { execFile } from 'node:child_process';
import { mkdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

export async function allocatedFile(file: string, bytes: number, modified?: Date): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await promisify(execFile)('fallocate', ['--length', String(Math.round(bytes)), file]);
  if (modified) await utimes(file, modified, modified);
  return file;
}
