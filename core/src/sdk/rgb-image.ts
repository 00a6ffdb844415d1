// Pictures as the OCR path handles them: 8-bit RGB (3 bytes a pixel, rows top to bottom), and the
// one-channel images it hands to recognition.

export interface RgbImage {
  width: number;
  height: number;
  /** width × height × 3 bytes, R G B. */
  data: Buffer;
}

export interface GreyImage {
  width: number;
  height: number;
  /** width × height bytes, 0 black to 255 white. */
  data: Buffer;
}

/** A fraction of a picture (0–1 each), so it holds at every resolution. */
export interface FractionalRegion {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The region in pixels, clamped to the picture and at least one pixel each way. */
export function regionInPixels(
  region: FractionalRegion,
  width: number,
  height: number,
): { left: number; top: number; width: number; height: number } {
  const left = Math.min(width - 1, Math.max(0, Math.round(region.left * width)));
  const top = Math.min(height - 1, Math.max(0, Math.round(region.top * height)));
  return {
    left,
    top,
    width: Math.max(1, Math.min(width - left, Math.round(region.width * width))),
    height: Math.max(1, Math.min(height - top, Math.round(region.height * height))),
  };
}

/** Portable greymap (PGM, binary): an image format tesseract's image reader takes without a codec of ours. */
export function toPgm(image: GreyImage): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'ascii'), image.data]);
}

/** A frame of the recording as OCR gets it: the picture and when it was captured. */
export interface ScreenFrame extends RgbImage {
  /** Milliseconds since the recording started. */
  timeMs: number;
}
