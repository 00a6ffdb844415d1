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

/** A `moov` larger than this is not read into memory to find a length (hours of video at a high frame rate). */
const MAX_MOOV_BYTES = 64 * 1024 * 1024;

/**
 * The length of a regular (not fragmented) MP4 as ffprobe reports it: per track, its start (the empty
 * edits in front) plus its media's length, the latest end less the earliest start. Read from the index
 * (`moov`) alone, without a process. Undefined where that reading could differ from ffprobe's: a
 * fragmented file, an edit list that skips into its media (B-frame delay, encoder priming) or has
 * several parts, no index.
 */
export async function readMp4Duration(file: string): Promise<number | undefined> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    for (let offset = 0, boxes = 0; offset < size && boxes < MAX_BOXES; boxes++) {
      const box = await readBoxHeader(handle, offset, size);
      if (!box) return undefined;
      if (box.type === 'moov') {
        if (box.size > MAX_MOOV_BYTES || offset + box.size > size) return undefined;
        const moov = Buffer.alloc(box.size - box.headerSize);
        await handle.read(moov, 0, moov.length, offset + box.headerSize);
        return movieLength(moov);
      }
      offset += box.size;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/** The boxes directly inside `body`, by type and content. */
function childBoxes(body: Buffer): { type: string; body: Buffer }[] {
  const children: { type: string; body: Buffer }[] = [];
  for (let offset = 0; offset + 8 <= body.length;) {
    const size = body.readUInt32BE(offset);
    if (size < 8 || offset + size > body.length) break; // 64-bit and open-ended sizes do not occur inside an index
    children.push({ type: body.toString('latin1', offset + 4, offset + 8), body: body.subarray(offset + 8, offset + size) });
    offset += size;
  }
  return children;
}

/** Time scale and duration of an `mvhd` or `mdhd` (same layout up to the duration). */
function timeHeader(body: Buffer | undefined): { timeScale: number; duration: number } | undefined {
  if (!body || body.length < 20) return undefined;
  const version = body.readUInt8(0);
  if (version === 1) return body.length < 32 ? undefined : { timeScale: body.readUInt32BE(20), duration: Number(body.readBigUInt64BE(24)) };
  return { timeScale: body.readUInt32BE(12), duration: body.readUInt32BE(16) };
}

function movieLength(moov: Buffer): number | undefined {
  const children = childBoxes(moov);
  if (children.some((child) => child.type === 'mvex')) return undefined;
  const movie = timeHeader(children.find((child) => child.type === 'mvhd')?.body);
  if (!movie?.timeScale) return undefined;
  const tracks = children.filter((child) => child.type === 'trak').map((trak) => trackSpan(trak.body, movie.timeScale));
  if (tracks.length === 0 || tracks.some((track) => track === undefined)) return undefined;
  const spans = tracks as { start: number; end: number }[];
  const length = Math.max(...spans.map((span) => span.end)) - Math.min(...spans.map((span) => span.start));
  return length > 0 ? length : undefined;
}

/** Where a track starts and ends in seconds; undefined for an edit list whose reading is not a plain offset. */
function trackSpan(trak: Buffer, movieTimeScale: number): { start: number; end: number } | undefined {
  const children = childBoxes(trak);
  const mdia = children.find((child) => child.type === 'mdia');
  const media = timeHeader(mdia && childBoxes(mdia.body).find((child) => child.type === 'mdhd')?.body);
  if (!media?.timeScale) return undefined;
  let start = 0;
  const edts = children.find((child) => child.type === 'edts');
  const elst = edts && childBoxes(edts.body).find((child) => child.type === 'elst')?.body;
  if (elst) {
    if (elst.length < 8) return undefined;
    const version = elst.readUInt8(0);
    const entrySize = version === 1 ? 20 : 12;
    const count = elst.readUInt32BE(4);
    if (elst.length < 8 + count * entrySize) return undefined;
    let played = 0;
    for (let entry = 0; entry < count; entry++) {
      const at = 8 + entry * entrySize;
      const duration = version === 1 ? Number(elst.readBigUInt64BE(at)) : elst.readUInt32BE(at);
      const mediaTime = version === 1 ? Number(elst.readBigInt64BE(at + 8)) : elst.readInt32BE(at + 4);
      if (mediaTime === -1 && played === 0) start += duration / movieTimeScale;
      else if (mediaTime !== 0 || ++played > 1) return undefined;
    }
  }
  return { start, end: start + media.duration / media.timeScale };
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
