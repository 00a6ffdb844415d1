// Pre-processing before recognition: the region is cut out of the frame and turned into black text
// on white, by a brightness threshold or by keeping one colour. Recognition of game text over busy
// scenes fails on the plain crop and succeeds on this (TOOLCHAIN.md, "OCR on busy frames").
import type { ScreenTextOptions } from '../../sdk/feed-types.js';
import { regionInPixels, type FractionalRegion, type GreyImage, type RgbImage } from '../../sdk/rgb-image.js';

export type Preprocess = ScreenTextOptions['preprocess'];

const BLACK = 0;
const WHITE = 255;

/** `#rrggbb` (or `rrggbb`) as [r, g, b]; throws on anything else. */
export function parseColour(colour: string): [number, number, number] {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour.trim());
  if (!match) throw new Error(`screenText colourKey colour ${JSON.stringify(colour)} is not a #rrggbb colour`);
  return [parseInt(match[1]!, 16), parseInt(match[2]!, 16), parseInt(match[3]!, 16)];
}

/** Checks the options once, when a feed opens, so a bad level or colour fails there and not on every frame. */
export function checkPreprocess(preprocess: Preprocess): void {
  if (preprocess.kind === 'threshold') {
    if (!(preprocess.level >= 0 && preprocess.level <= 255))
      throw new Error(`screenText threshold level ${preprocess.level} is not within 0–255`);
    return;
  }
  parseColour(preprocess.colour);
  if (!(preprocess.tolerance >= 0 && preprocess.tolerance <= 255))
    throw new Error(`screenText colourKey tolerance ${preprocess.tolerance} is not within 0–255`);
}

/**
 * The region of `frame` as black on white. `threshold`: grey = (77R + 150G + 29B) >> 8 (the
 * reference's weights), bright pixels (grey ≥ level) become the black text. `colourKey`: pixels
 * within `tolerance` of the colour on every channel become black. Then every patch of text pixels
 * that touches the region's edge is dropped: a message sits inside its region, while bright or
 * same-coloured parts of the scene run across the edge, and left in they make the line unreadable.
 */
export function binarizeRegion(frame: RgbImage, region: FractionalRegion, preprocess: Preprocess): GreyImage {
  const area = regionInPixels(region, frame.width, frame.height);
  const out = Buffer.alloc(area.width * area.height);
  const isText = textTest(preprocess);
  const source = frame.data;
  for (let y = 0; y < area.height; y++) {
    let from = ((area.top + y) * frame.width + area.left) * 3;
    let to = y * area.width;
    for (let x = 0; x < area.width; x++, from += 3, to++) {
      out[to] = isText(source[from]!, source[from + 1]!, source[from + 2]!) ? BLACK : WHITE;
    }
  }
  clearEdgePatches(out, area.width, area.height);
  return { width: area.width, height: area.height, data: out };
}

/** Turns white every 4-connected patch of black that reaches an edge (iterative fill, no recursion). */
function clearEdgePatches(image: Buffer, width: number, height: number): void {
  const stack: number[] = [];
  const push = (index: number) => {
    if (image[index] !== BLACK) return;
    image[index] = WHITE;
    stack.push(index);
  };
  for (let x = 0; x < width; x++) {
    push(x);
    push((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    push(y * width);
    push(y * width + width - 1);
  }
  while (stack.length > 0) {
    const index = stack.pop()!;
    const x = index % width;
    if (x > 0) push(index - 1);
    if (x < width - 1) push(index + 1);
    if (index >= width) push(index - width);
    if (index < (height - 1) * width) push(index + width);
  }
}

function textTest(preprocess: Preprocess): (red: number, green: number, blue: number) => boolean {
  if (preprocess.kind === 'threshold') {
    const level = preprocess.level;
    return (red, green, blue) => (77 * red + 150 * green + 29 * blue) >> 8 >= level;
  }
  const [keyRed, keyGreen, keyBlue] = parseColour(preprocess.colour);
  const tolerance = preprocess.tolerance;
  return (red, green, blue) =>
    Math.abs(red - keyRed) <= tolerance && Math.abs(green - keyGreen) <= tolerance && Math.abs(blue - keyBlue) <= tolerance;
}
