// Whether a recording's encode keeps up with the clock, from ffmpeg's progress reports over a sliding
// window: behind when it encodes slower than real time (the file comes out shorter than the time
// recorded), when fewer frames than the target rate come out (a grabber that cannot hand over a frame
// skips it), or when ffmpeg drops or duplicates frames while the output falls short of the rate (drops
// alone are the frame-rate conversion of a faster source). Pure: the caller says when each report came.
import type { FfmpegProgress } from '../media/ffmpeg-process.js';

export type OverloadReason = 'speed' | 'frameRate' | 'droppedFrames';

export interface EncodeHealthVerdict {
  overloaded: boolean;
  reason: OverloadReason | undefined;
  /** Seconds of video per second of the clock over the window; undefined until a window was measured. */
  speed: number | undefined;
  framesPerSecond: number | undefined;
  targetFrameRate: number;
  /** Dropped plus duplicated frames of the whole run. */
  droppedFrames: number;
}

export interface EncodeHealthOptions {
  /** The span each verdict looks back over. */
  windowMs?: number;
  /** Reports of the first moments are left out: the encoder and the grabber are still starting. */
  warmUpMs?: number;
}

/**
 * Overloaded below these; recovered only at or above the higher `RECOVERED` ones, so that an encode
 * at the edge does not flip the verdict back and forth.
 */
const OVERLOADED = { speed: 0.95, frameShare: 0.9, droppedShare: 0.05 };
const RECOVERED = { speed: 0.98, frameShare: 0.95, droppedShare: 0.01 };
/** Dropped frames count when the output has fewer than this share of the target rate. */
const SHORT_OF_FRAMES = 0.98;
const DEFAULT_WINDOW_MS = 4_000;
const DEFAULT_WARM_UP_MS = 2_000;

interface Sample {
  atMs: number;
  frame: number;
  outTimeSeconds: number | undefined;
  lost: number;
}

export class EncodeHealth {
  readonly #windowMs: number;
  readonly #warmUpMs: number;
  #firstAtMs: number | undefined;
  #samples: Sample[] = [];
  #verdict: EncodeHealthVerdict;

  constructor(
    readonly targetFrameRate: number,
    options: EncodeHealthOptions = {},
  ) {
    this.#windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    this.#warmUpMs = options.warmUpMs ?? DEFAULT_WARM_UP_MS;
    this.#verdict = {
      overloaded: false,
      reason: undefined,
      speed: undefined,
      framesPerSecond: undefined,
      targetFrameRate,
      droppedFrames: 0,
    };
  }

  get verdict(): EncodeHealthVerdict {
    return this.#verdict;
  }

  /** Takes the report that arrived at `atMs` (a monotonic clock); returns the verdict, a new object each time it is measured. */
  observe(progress: FfmpegProgress, atMs: number): EncodeHealthVerdict {
    this.#firstAtMs ??= atMs;
    const lost = progress.droppedFrames + progress.duplicatedFrames;
    if (atMs - this.#firstAtMs < this.#warmUpMs) return this.#verdict;
    this.#samples.push({ atMs, frame: progress.frame, outTimeSeconds: progress.outTimeSeconds, lost });
    // Keep the newest sample at least a window old as the base.
    while (this.#samples.length > 2 && atMs - this.#samples[1]!.atMs >= this.#windowMs) this.#samples.shift();
    const base = this.#samples[0]!;
    const elapsedSeconds = (atMs - base.atMs) / 1000;
    if (atMs - base.atMs < this.#windowMs) {
      this.#verdict = lost === this.#verdict.droppedFrames ? this.#verdict : { ...this.#verdict, droppedFrames: lost };
      return this.#verdict;
    }
    const framesPerSecond = (progress.frame - base.frame) / elapsedSeconds;
    const speed =
      progress.outTimeSeconds !== undefined && base.outTimeSeconds !== undefined
        ? (progress.outTimeSeconds - base.outTimeSeconds) / elapsedSeconds
        : progress.speed;
    const droppedShare = (lost - base.lost) / Math.max(1, this.targetFrameRate * elapsedSeconds);
    const shortfall = (limits: typeof OVERLOADED): OverloadReason | undefined => {
      if (speed !== undefined && speed < limits.speed) return 'speed';
      if (framesPerSecond < limits.frameShare * this.targetFrameRate) return 'frameRate';
      const shortOfFrames = framesPerSecond < SHORT_OF_FRAMES * this.targetFrameRate;
      return droppedShare > limits.droppedShare && shortOfFrames ? 'droppedFrames' : undefined;
    };
    const reason = shortfall(OVERLOADED) ?? (this.#verdict.overloaded ? shortfall(RECOVERED) : undefined);
    this.#verdict = {
      overloaded: reason !== undefined,
      reason,
      speed: speed === undefined ? undefined : round(speed, 2),
      framesPerSecond: round(framesPerSecond, 1),
      targetFrameRate: this.targetFrameRate,
      droppedFrames: lost,
    };
    return this.#verdict;
  }
}

/** The share of the work the encode gets done in time (1: keeps up), from a verdict; 1 before any measure. */
export function keepUpShare(verdict: EncodeHealthVerdict): number {
  const frameShare = verdict.framesPerSecond === undefined ? 1 : verdict.framesPerSecond / verdict.targetFrameRate;
  return Math.min(1, verdict.speed ?? 1, frameShare);
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
