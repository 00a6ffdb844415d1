import type { Settings, State } from '@keyframe/core/protocol';

const METHOD_NAMES: Record<NonNullable<State['captureInUse']>['method'], string> = {
  ddagrab: 'the screen grabbed on the GPU (Desktop Duplication)',
  gdigrab: 'the screen grabbed by GDI',
  x11grab: 'the X11 screen',
  avfoundation: 'the screen through AVFoundation',
  synthetic: 'a test pattern (no screen to record)',
};

/**
 * The line under the encoder setting: what the current (else last, else next) recording really records
 * with, and why the hardware encoder asked for is not used. Undefined until the service knows.
 */
export function captureInUseText(capture: State['captureInUse'], encoder: Settings['encoder']): string | undefined {
  if (!capture) return undefined;
  const recording = capture.of === 'last' ? 'the last recording used' : 'recording with';
  const used = `${capture.encoderName} from ${METHOD_NAMES[capture.method]}`;
  if (encoder === 'gpu' && !capture.hardwareEncode) {
    const why = capture.notUsed.find((entry) => entry.used === capture.encoder)?.reason ?? 'no working hardware encoder was found';
    return `Hardware (GPU) requested — ${recording} ${used}: ${why}`;
  }
  return `${recording.charAt(0).toUpperCase()}${recording.slice(1)} ${used}`;
}
