// MP4 layout, read from the box headers: enough to tell whether a player can open a file at once or it
// needs a remux (fragmented, moov after mdat, truncated).
import { open, type FileHandle } from 'node:fs/promises';

/** The top-level boxes of an MP4, enough to tell fragmented, moov-last and truncated files. */
export interface Mp4Layout {
  /** Top-level box types in file order. */
  boxes: string[];
  /** `moov` holds `mvex`, or the file has `moof` boxes. */
  fragmented: boolean;
  /** Every box ends within the file. */
  complete: boolean;
}

interface BoxHeader {
  type: string;
  /** Bytes of the whole box, header included. */
  size: number;
  headerSize: number;
}

// A bound on a file of tiny boxes, so that reading the layout stays quick on garbage.
const MAX_BOXES = 100_000;

/** Reads only box headers (never the media data), so it is quick on a file of any size. */
export async function readMp4Layout(file: string): Promise<Mp4Layout> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const boxes: string[] = [];
    let complete = true;
    let fragmented = false;
    for (let offset = 0; offset < size && boxes.length < MAX_BOXES;) {
      const box = await readBoxHeader(handle, offset, size);
      if (!box) {
        complete = false;
        break;
      }
      boxes.push(box.type);
      if (box.type === 'moof') fragmented = true;
      if (box.type === 'moov') {
        for (let child = offset + box.headerSize; child < offset + box.size;) {
          const inner = await readBoxHeader(handle, child, offset + box.size);
          if (!inner) break;
          if (inner.type === 'mvex') fragmented = true;
          child += inner.size;
        }
      }
      if (offset + box.size > size) complete = false;
      offset += box.size;
    }
    return { boxes, fragmented, complete };
  } finally {
    await handle.close();
  }
}

/** A file any player opens at once: complete, not fragmented, `moov` before `mdat`. */
export function needsRemux(layout: Mp4Layout): boolean {
  const moov = layout.boxes.indexOf('moov');
  const mdat = layout.boxes.indexOf('mdat');
  return !layout.complete || layout.fragmented || moov < 0 || (mdat >= 0 && mdat < moov);
}

/** The header of the box at `offset`, or undefined when there is none that fits before `end`. */
async function readBoxHeader(handle: FileHandle, offset: number, end: number): Promise<BoxHeader | undefined> {
  if (end - offset < 8) return undefined;
  const header = Buffer.alloc(16);
  const { bytesRead } = await handle.read(header, 0, 16, offset);
  if (bytesRead < 8) return undefined;
  const type = header.toString('latin1', 4, 8);
  if (!/^[\x20-\x7e]{4}$/.test(type)) return undefined;
  let size = header.readUInt32BE(0);
  let headerSize = 8;
  if (size === 1) {
    if (bytesRead < 16) return undefined;
    size = Number(header.readBigUInt64BE(8));
    headerSize = 16;
  } else if (size === 0) {
    size = end - offset; // the box runs to the end of the file
  }
  return size < headerSize ? undefined : { type, size, headerSize };
}
