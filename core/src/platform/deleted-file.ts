// A file deleted while a process still has it open lives on until the process closes it. On Linux
// its content can still be read through `/proc/<pid>/fd`, so a recording whose folder was removed
// mid-way can be copied out before its writer stops.
import { copyFile, mkdir, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Copies what `pid` has written so far to the deleted `file` into `target`; false where the
 * platform cannot (not Linux) or the process no longer holds the file.
 */
export async function copyDeletedOpenFile(
  pid: number,
  file: string,
  target: string,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean> {
  if (platform !== 'linux') return false;
  const fdFolder = `/proc/${pid}/fd`;
  const descriptors = await readdir(fdFolder).catch(() => [] as string[]);
  for (const descriptor of descriptors) {
    const link = await readlink(path.join(fdFolder, descriptor)).catch(() => '');
    if (link !== `${file} (deleted)`) continue;
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(path.join(fdFolder, descriptor), target);
    return true;
  }
  return false;
}
