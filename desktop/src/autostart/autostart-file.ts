// An autostart entry that is a file (Linux' XDG autostart entry, macOS' LaunchAgent): written, rewritten when the
// install moved, removed when the setting is off. A file of that name without Keyframe's mark is never touched.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AutostartOutcome } from './autostart-outcome.js';

export interface AutostartFile {
  path: string;
  /** The whole file as Keyframe writes it now. */
  text: string;
  /** A line only Keyframe's own entries have. */
  ownerLine: string;
}

export async function applyAutostartFile(enabled: boolean, entry: AutostartFile): Promise<AutostartOutcome> {
  const file = entry.path;
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing !== undefined && !existing.split('\n').some((line) => line.trim() === entry.ownerLine))
    return { kind: 'foreign', entry: file };
  if (!enabled) {
    if (existing === undefined) return { kind: 'unchanged', entry: file };
    await rm(file);
    return { kind: 'removed', entry: file };
  }
  if (existing === entry.text) return { kind: 'unchanged', entry: file };
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, entry.text);
  return { kind: 'written', entry: file };
}
