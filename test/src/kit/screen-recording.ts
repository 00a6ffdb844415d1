// A manual recording of the screen as a user makes one: 720p30 into a content folder, started, held for
// a few seconds of recording time, stopped, and the saved file probed.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Recording, State } from '@keyframe/core/protocol';
import type { ProtocolClient } from '@keyframe/integration-testkit';
import { ffprobePath } from './processes.js';

const run = promisify(execFile);

export interface ProbedStream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  tags?: { handler_name?: string };
}

export interface ScreenRecording {
  /** The State once it runs (`recording` set). */
  running: State;
  /** The State once the file is saved and listed. */
  saved: State;
  file: string;
  /** ffprobe's `-show_format -show_streams`. */
  probed: { format: { duration: string }; streams: ProbedStream[] };
}

/** Records `seconds` from the recording's start time; `whileRecording` runs once it has started. */
export async function recordScreen(
  client: ProtocolClient,
  contentFolder: string,
  seconds: number,
  whileRecording?: (recording: Recording) => Promise<void>,
): Promise<ScreenRecording> {
  client.send('UpdateSettings', { resolution: '720p', frameRate: 30, contentFolder });
  await client.next('Settings');
  client.send('StartRecording');
  const running = await client.next('State', (next) => next.recording !== null && next.preRecording === null, 20000);
  const recording = running.recording!;
  await whileRecording?.(recording);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(recording.startTime) + seconds * 1000 - Date.now())));
  client.send('StopRecording');
  // By game: a game detected on this machine (another suite's stand-in) may add its own item.
  const manual = (next: State) => next.content.find((item) => item.game === 'Manual Recording');
  const saved = await client.next('State', (next) => next.recording === null && manual(next) !== undefined, 20000);
  const file = manual(saved)!.filePath;
  const { stdout } = await run(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
  return { running, saved, file, probed: JSON.parse(stdout) as ScreenRecording['probed'] };
}
