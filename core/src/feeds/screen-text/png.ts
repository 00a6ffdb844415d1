// PNG for the frames a tape keeps beside it: written by the tape recorder, read on replay (and from
// ffmpeg's image2 output, which is how test frames are made). 8-bit grey, RGB and RGBA,
// non-interlaced: what those writers produce.
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import type { RgbImage } from '../../sdk/rgb-image.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const COLOUR_TYPE_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 6: 4 };
const FILTER_PAETH = 4;

export function encodePng(image: RgbImage): Buffer {
  const stride = image.width * 3;
  const filtered = Buffer.alloc((stride + 1) * image.height);
  for (let y = 0; y < image.height; y++) {
    const row = y * (stride + 1);
    filtered[row] = FILTER_PAETH;
    for (let x = 0; x < stride; x++) {
      const at = y * stride + x;
      const left = x >= 3 ? image.data[at - 3]! : 0;
      const up = y > 0 ? image.data[at - stride]! : 0;
      const upLeft = x >= 3 && y > 0 ? image.data[at - stride - 3]! : 0;
      filtered[row + 1 + x] = (image.data[at]! - paeth(left, up, upLeft)) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, adaptive filtering, no interlace
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(filtered)), chunk('IEND', Buffer.alloc(0))]);
}

/** Decodes to RGB; throws with what is wrong for PNGs it cannot read. */
export function decodePng(png: Buffer): RgbImage {
  if (png.length < 8 || !png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file');
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colourType, , , interlace] = body.subarray(8, 13);
      channels = COLOUR_TYPE_CHANNELS[colourType!] ?? 0;
      if (depth !== 8 || channels === 0 || interlace !== 0) {
        throw new Error(
          `PNG of bit depth ${depth}, colour type ${colourType}, interlace ${interlace} is not supported (8-bit grey, RGB or RGBA, not interlaced)`,
        );
      }
    } else if (type === 'IDAT') {
      data.push(body);
    } else if (type === 'IEND') {
      break;
    }
    at += 12 + length;
  }
  if (channels === 0) throw new Error('PNG has no IHDR');
  const raw = unfilter(inflateSync(Buffer.concat(data)), width, height, channels);
  return { width, height, data: toRgb(raw, channels) };
}

function unfilter(filtered: Buffer, width: number, height: number, channels: number): Buffer {
  const stride = width * channels;
  if (filtered.length < (stride + 1) * height) throw new Error('PNG image data is shorter than its size says');
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = filtered[y * (stride + 1)]!;
    const from = y * (stride + 1) + 1;
    for (let x = 0; x < stride; x++) {
      const at = y * stride + x;
      const left = x >= channels ? out[at - channels]! : 0;
      const up = y > 0 ? out[at - stride]! : 0;
      const upLeft = x >= channels && y > 0 ? out[at - stride - channels]! : 0;
      const value = filtered[from + x]!;
      switch (filter) {
        case 0:
          out[at] = value;
          break;
        case 1:
          out[at] = (value + left) & 0xff;
          break;
        case 2:
          out[at] = (value + up) & 0xff;
          break;
        case 3:
          out[at] = (value + ((left + up) >> 1)) & 0xff;
          break;
        case 4:
          out[at] = (value + paeth(left, up, upLeft)) & 0xff;
          break;
        default:
          throw new Error(`PNG row ${y} has unknown filter ${filter}`);
      }
    }
  }
  return out;
}

function toRgb(raw: Buffer, channels: number): Buffer {
  if (channels === 3) return raw;
  const pixels = raw.length / channels;
  const rgb = Buffer.alloc(pixels * 3);
  for (let pixel = 0; pixel < pixels; pixel++) {
    const from = pixel * channels;
    rgb[pixel * 3] = raw[from]!;
    rgb[pixel * 3 + 1] = raw[channels === 1 ? from : from + 1]!;
    rgb[pixel * 3 + 2] = raw[channels === 1 ? from : from + 2]!;
  }
  return rgb;
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

function chunk(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
