// A long uncompressed video for suites that cancel jobs mid-way: its copy and its encodes take long
// enough (about two seconds to copy) to be caught running, yet it is made in about two seconds.
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ffmpegPath } from './processes.js';

/** 10 s of uncompressed 1280x720 picture with a 440 Hz tone (AAC), Matroska: about 420 MB. */
export async function rawVideo(target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const args = [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=10'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=10'],
    ...['-c:v', 'rawvideo', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-y', target],
  ];
  await new Promise<void>((resolve, reject) =>
    execFile(ffmpegPath(), args, (error, _stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve())),
  );
}
