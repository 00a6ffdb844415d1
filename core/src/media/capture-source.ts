// Where the picture and sound of a recording come from, as ffmpeg inputs. `synthetic` (test
// pattern + tone) runs anywhere, so the service records headless and in CI.
import { injectable } from 'tsyringe';
import { currentEnvironment, type Environment } from '../platform/data-folders.js';
import { Logger } from '../support/logger.js';

export interface CaptureFormat {
  width: number;
  height: number;
  frameRate: number;
}

export interface CaptureInputs {
  /** ffmpeg input options and `-i` arguments, in order. */
  args: string[];
  /** `-map` specifier of the picture, e.g. `0:v`. */
  video: string;
  /** `-map` specifier of the sound; without one the recorder adds silence. */
  audio?: string;
}

export interface CaptureSource {
  /** Short name for logs: `synthetic`, `x11grab`, … */
  readonly name: string;
  /** Inputs that deliver `format` (size and rate) in real time. */
  inputs(format: CaptureFormat): CaptureInputs;
}

export const TONE_FREQUENCY_HZ = 440;
export const AUDIO_SAMPLE_RATE = 48_000;

/** A moving test pattern and a 440 Hz tone, paced in real time (`-re`) like a live capture. */
export class SyntheticCaptureSource implements CaptureSource {
  readonly name = 'synthetic';

  inputs({ width, height, frameRate }: CaptureFormat): CaptureInputs {
    return {
      args: [
        '-re', '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${frameRate}`,
        '-re', '-f', 'lavfi', '-i', `sine=frequency=${TONE_FREQUENCY_HZ}:sample_rate=${AUDIO_SAMPLE_RATE}`,
      ],
      video: '0:v',
      audio: '1:a',
    };
  }
}

export interface CaptureChoice {
  source: CaptureSource;
  /** Set when the preferred source was not available and synthetic was taken instead. */
  fallbackReason?: string;
}

/**
 * `KEYFRAME_CAPTURE=synthetic`, or no display on Linux (`DISPLAY` unset), selects the synthetic
 * source. Display and audio capture per platform come later; until then the others fall back too.
 */
export function chooseCaptureSource(environment: Environment = currentEnvironment()): CaptureChoice {
  const requested = environment.variables.KEYFRAME_CAPTURE?.trim().toLowerCase();
  if (requested === 'synthetic') return { source: new SyntheticCaptureSource() };
  if (requested) {
    return { source: new SyntheticCaptureSource(), fallbackReason: `KEYFRAME_CAPTURE=${requested} is not a capture source this version knows` };
  }
  if (environment.platform === 'linux' && !environment.variables.DISPLAY) return { source: new SyntheticCaptureSource() };
  return { source: new SyntheticCaptureSource(), fallbackReason: `screen capture on ${environment.platform} is not available in this version yet` };
}

@injectable()
export class CaptureSources {
  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger.child('capture');
  }

  /** The source for the next recording. */
  select(): CaptureSource {
    const choice = chooseCaptureSource();
    if (choice.fallbackReason) {
      this.logger.warn('recording a test pattern instead of the screen', { reason: choice.fallbackReason });
    }
    return choice.source;
  }
}
