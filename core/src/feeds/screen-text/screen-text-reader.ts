// Reads the text of one frame for one screenText feed: checks the frame's aspect ratio against the
// ones the region is valid for, cuts and pre-processes the region, recognises it.
import type { ScreenTextInput, ScreenTextOptions } from '../../sdk/feed-types.js';
import { binarizeRegion, checkPreprocess } from './binarize.js';
import { toPgm, type GreyImage, type ScreenFrame } from '../../sdk/rgb-image.js';
import type { Recognition, TextRecognizer } from './text-recognizer.js';

/** How far (relative) a frame's width / height may be from a listed ratio: 1366x768 is 16:9. */
const ASPECT_TOLERANCE = 0.02;

export type FrameReading = { kind: 'read'; input: ScreenTextInput } | { kind: 'unsupportedAspect'; reason: string };

export class ScreenTextReader {
  /** The last region sent to recognition and what it read: the same pixels are not read twice. */
  private lastRecognized: { region: Buffer; recognition: Recognition } | undefined;

  constructor(
    private readonly feed: string,
    private readonly options: ScreenTextOptions,
    private readonly recognizer: TextRecognizer,
  ) {
    checkScreenTextOptions(feed, options);
  }

  /** Takes what it needs of `frame`'s pixels before it returns: the caller may reuse the buffer at once. */
  async read(frame: ScreenFrame): Promise<FrameReading> {
    const unsupported = this.unsupportedAspect(frame);
    if (unsupported) return { kind: 'unsupportedAspect', reason: unsupported };
    const region = binarizeRegion(frame, this.options.region, this.options.preprocess);
    // Nothing that could be text: no need to ask (tesseract also prints statistics for an empty page).
    if (!region.data.includes(0)) return { kind: 'read', input: { text: '', confidence: 0, frameTimeMs: frame.timeMs } };
    const { text, confidence } = await this.recognize(region);
    return { kind: 'read', input: { text, confidence, frameTimeMs: frame.timeMs } };
  }

  /**
   * A message that stays on screen over a still part of the scene gives the same black-on-white
   * region frame after frame: recognition is deterministic, so its last result is reused (a
   * comparison of a few kilobytes against a recognition of 10–20 ms).
   */
  private async recognize(region: GreyImage): Promise<Recognition> {
    const last = this.lastRecognized;
    if (last && last.region.equals(region.data)) return last.recognition;
    const recognition = await this.recognizer.recognize(toPgm(region));
    this.lastRecognized = { region: region.data, recognition };
    return recognition;
  }

  private unsupportedAspect({ width, height }: ScreenFrame): string | undefined {
    const ratios = this.options.aspectRatios;
    if (!ratios || ratios.length === 0) return undefined;
    const ratio = width / height;
    if (ratios.some((supported) => Math.abs(ratio - supported) / supported <= ASPECT_TOLERANCE)) return undefined;
    return (
      `On-screen text is not read: the picture is ${width}x${height} (${formatRatio(ratio)}), and the text region of screenText feed ` +
      `"${this.feed}" is only known for ${ratios.map(formatRatio).join(', ')}. Play at one of those aspect ratios.`
    );
  }
}

/** Throws with what is wrong: a region outside the frame, a non-positive interval, a bad pre-processing. */
export function checkScreenTextOptions(feed: string, { region, intervalMs, preprocess }: ScreenTextOptions): void {
  const { left, top, width, height } = region;
  const inside =
    [left, top, width, height].every((value) => Number.isFinite(value) && value >= 0 && value <= 1) &&
    width > 0 &&
    height > 0 &&
    left + width <= 1 + 1e-9 &&
    top + height <= 1 + 1e-9;
  if (!inside) throw new Error(`screenText feed "${feed}": region ${JSON.stringify(region)} is not a part of the frame (fractions 0–1)`);
  if (!(intervalMs > 0)) throw new Error(`screenText feed "${feed}": intervalMs ${intervalMs} must be above 0`);
  checkPreprocess(preprocess);
}

function formatRatio(ratio: number): string {
  const known: [number, string][] = [
    [16 / 9, '16:9'],
    [16 / 10, '16:10'],
    [4 / 3, '4:3'],
    [21 / 9, '21:9'],
    [64 / 27, '64:27'],
    [32 / 9, '32:9'],
  ];
  const name = known.find(([value]) => Math.abs(ratio - value) / value <= ASPECT_TOLERANCE)?.[1];
  return name ?? `${ratio.toFixed(2)}:1`;
}
