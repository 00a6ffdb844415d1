// The tray icons, drawn rather than shipped: a dot in the colour of the status (idle grey, recording red, saving
// amber) on a transparent square. RGBA pixels, row by row; the adapters convert them to what their OS takes.
import { crc32, deflateSync } from 'node:zlib';
import type { TrayStatus } from './tray-model.js';

const COLOURS: Record<TrayStatus, readonly [number, number, number]> = {
  idle: [0x9a, 0x9f, 0xa8],
  recording: [0xe5, 0x48, 0x4d],
  saving: [0xf5, 0xa5, 0x24],
};

export interface IconPixels {
  size: number;
  /** size × size × 4 bytes: R, G, B, A. */
  rgba: Buffer;
}

export function trayIconPixels(status: TrayStatus, size = 32): IconPixels {
  const [red, green, blue] = COLOURS[status];
  const rgba = Buffer.alloc(size * size * 4);
  const centre = (size - 1) / 2;
  const radius = size * 0.4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      // Edge pixels partly covered, for a round dot at small sizes.
      const coverage = Math.min(1, Math.max(0, radius + 0.5 - Math.hypot(x - centre, y - centre)));
      rgba.set([red, green, blue, Math.round(coverage * 255)], (y * size + x) * 4);
    }
  }
  return { size, rgba };
}

/** StatusNotifierItem's IconPixmap: ARGB32 in network byte order. */
export function toArgb({ rgba }: IconPixels): Buffer {
  const argb = Buffer.alloc(rgba.length);
  for (let offset = 0; offset < rgba.length; offset += 4) {
    argb[offset] = rgba[offset + 3]!;
    argb[offset + 1] = rgba[offset]!;
    argb[offset + 2] = rgba[offset + 1]!;
    argb[offset + 3] = rgba[offset + 2]!;
  }
  return argb;
}

/** A PNG file of the pixels (for Windows' NotifyIcon and macOS). */
export function encodePng({ size, rgba }: IconPixels): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, no filter set, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4); // filter byte 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}
