// A generated video imported into the running service's library, for suites that need a saved
// item to protect or to clip.
import type { ContentItem } from '@keyframe/core/protocol';
import { generateVideo, type TestVideo } from '@keyframe/core/testing';
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ffmpegPath } from './processes.js';
import { type ProtocolClient } from '@keyframe/integration-testkit';

/**
 * Writes a test video to `<sourceFolder>/<name>.mp4`, imports it as a Session and resolves with its
 * State item once the import is done (the library file no longer changes after that).
 */
export async function importGeneratedVideo(
  frontend: ProtocolClient,
  sourceFolder: string,
  name: string,
  video: TestVideo,
): Promise<ContentItem> {
  const source = path.join(sourceFolder, `${name}.mp4`);
  await mkdir(sourceFolder, { recursive: true });
  await generateVideo(ffmpegPath(), source, video);
  frontend.send('ImportFile', { sectionId: 'sessions', FilePaths: [source] });
  await frontend.next('ImportProgress', (progress) => progress.status === 'done' || progress.status === 'error', 120_000);
  const state = await frontend.until('State', (next) => next.content.some((item) => item.isImported && item.fileName === name), 30_000);
  return state.content.find((item) => item.isImported && item.fileName === name)!;
}

export async function fileSha256(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}
