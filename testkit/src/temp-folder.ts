// Temporary folders for data and content that tests create and remove.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface TempFolder {
  readonly path: string;
  remove(): Promise<void>;
}

export async function createTempFolder(prefix = 'keyframe-test-'): Promise<TempFolder> {
  const folder = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { path: folder, remove: () => rm(folder, { recursive: true, force: true, maxRetries: 3 }) };
}
