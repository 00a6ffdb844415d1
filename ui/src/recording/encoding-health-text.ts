import { describeEncodeLevel, type State } from '@keyframe/core/protocol';

/**
 * The warning on the Recording page while the encode cannot keep up (OBS's "encoding overloaded"):
 * what is measured and what Keyframe does about it. Undefined while it keeps up.
 */
export function encodingOverloadText(health: State['encodingHealth']): string | undefined {
  if (!health?.overloaded) return undefined;
  const measured =
    health.reason === 'speed' && health.speed !== null
      ? `it encodes at ${health.speed.toFixed(2)}x real time`
      : health.framesPerSecond !== null
        ? `${Math.round(health.framesPerSecond)} of ${health.targetFrameRate} frames a second reach the file`
        : 'frames are being lost';
  const next = health.nextStepDown ? ` The next recording starts at ${describeEncodeLevel(health.nextStepDown)}.` : '';
  return `Encoding overloaded: ${measured}.${next}`;
}
