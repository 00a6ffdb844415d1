// The application icon of the menu entry, drawn rather than shipped: the tray's recording dot on a dark rounded
// square (the UI's background colour), so the icon reads as "records" at every size.
import { trayIconPixels, type IconPixels } from '../tray/tray-icons.js';

const BACKGROUND = [0x19, 0x1c, 0x23] as const;

export function appIconPixels(size: number): IconPixels {
  const dot = trayIconPixels('recording', size);
  const rgba = Buffer.alloc(size * size * 4);
  const corner = size * 0.2;
  const inner = (value: number) => Math.max(corner - value - 0.5, value + 0.5 - (size - corner), 0);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      // Distance past the rounded corners' arcs: pixels beyond the edge are transparent, the edge partly covered.
      const outside = Math.hypot(inner(x), inner(y)) - corner;
      const square = Math.min(1, Math.max(0, 0.5 - outside));
      const offset = (y * size + x) * 4;
      const dotCoverage = dot.rgba[offset + 3]! / 255;
      for (let channel = 0; channel < 3; channel++)
        rgba[offset + channel] = Math.round(dot.rgba[offset + channel]! * dotCoverage + BACKGROUND[channel]! * (1 - dotCoverage));
      rgba[offset + 3] = Math.round(square * 255);
    }
  }
  return { size, rgba };
}
