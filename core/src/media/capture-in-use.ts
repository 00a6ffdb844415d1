// What a recording really records with, for State and the settings page: the capture method, the
// encoder, whether the GPU grabs and encodes, every choice's reason and what was wanted but not used.
import type { CaptureInUse, Codec } from '../protocol/index.js';
import type { CapturePlan } from './capture-plan.js';
import { chooseVideoCodec, encoderProfile, type VideoEncoderSettings } from './video-encoder.js';

export type CaptureDescription = Omit<CaptureInUse, 'of'>;

/**
 * From the plan of a screen recording; without one (the test pattern, or a grabber forced by
 * `KEYFRAME_CAPTURE` that the plan does not take) the settings' encoder as `chooseVideoCodec` picks it.
 */
export function describeCapture(
  method: string,
  plan: CapturePlan | undefined,
  settings: Pick<VideoEncoderSettings, 'encoder' | 'codec'>,
  codecs: readonly Codec[],
): CaptureDescription {
  if (plan)
    return {
      method: plan.grabber,
      encoder: plan.encoder,
      encoderName: encoderProfile(plan.encoder)?.friendlyName ?? plan.encoder,
      hardwareEncode: encoderProfile(plan.encoder)?.hardware ?? false,
      hardwareGrab: plan.grabber === 'ddagrab',
      reasons: [...plan.reasons],
      notUsed: plan.fallbacks.map((fallback) => ({ requested: fallback.wanted, used: fallback.used, reason: fallback.why })),
    };
  const { codec, reason } = chooseVideoCodec(settings, codecs);
  const synthetic = method === 'synthetic';
  return {
    method: synthetic ? 'synthetic' : (method as CaptureDescription['method']),
    encoder: codec.internalEncoderId,
    encoderName: codec.friendlyName,
    hardwareEncode: codec.isHardwareEncoder,
    hardwareGrab: false,
    reasons: [
      synthetic ? 'screen: a test pattern and a tone, not the screen' : `screen: ${method}`,
      `encoder: ${codec.friendlyName}${reason ? `: ${reason}` : ''}`,
    ],
    notUsed: reason
      ? [{ requested: settings.codec?.internalEncoderId ?? 'a hardware encoder', used: codec.internalEncoderId, reason }]
      : [],
  };
}
