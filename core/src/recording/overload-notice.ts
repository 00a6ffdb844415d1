// What the user is told when a recording's encode cannot keep up with the clock (OBS's "encoding overloaded").
import type { Modal } from '../notices/notifier.js';
import { describeEncodeLevel, type EncodeLevel } from '../protocol/index.js';
import type { EncodeHealthVerdict } from './encode-health.js';

/** The dialog for an encode at `level` judged as `verdict`; `next` is the level the next recordings start at (none: the ladder's end). */
export function overloadNotice(verdict: EncodeHealthVerdict, level: EncodeLevel, next: EncodeLevel | undefined): Modal {
  const done = next
    ? `This recording goes on as it is; the next ones start at ${describeEncodeLevel(next)} instead of ${describeEncodeLevel(level)}, until you change the recording settings.`
    : `It already records at the lowest level Keyframe steps down to (${describeEncodeLevel(level)}).`;
  return {
    title: "Recording can't keep up",
    description:
      `This computer encodes the recording ${symptom(verdict)}. ${done} ` +
      'To keep up: choose a lower resolution or frame rate in the recording settings, a hardware (GPU) encoder if this machine has one, ' +
      'or close programs that keep the processor busy.',
    type: 'warning',
  };
}

function symptom({ reason, speed, framesPerSecond, targetFrameRate, droppedFrames }: EncodeHealthVerdict): string {
  if (reason === 'speed' && speed !== undefined) {
    return `slower than real time (${speed}x): the video would come out shorter than the time recorded`;
  }
  if (reason === 'frameRate' && framesPerSecond !== undefined) {
    return `too slowly: ${Math.round(framesPerSecond)} frames a second reach the file instead of ${targetFrameRate}`;
  }
  return `too slowly: ffmpeg dropped or repeated ${droppedFrames} frames so far`;
}
