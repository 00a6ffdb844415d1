// The frame rate of an MP4 file's video track, read from its boxes (ISO BMFF) with a few byte-range
// reads: the browser's player does not tell it. Regular files give it in the sample table (`stts`);
// fragmented ones, as Keyframe records them, in the first fragment (`tfhd`/`trun`) or the track
// defaults (`trex`). Undefined for anything else (other containers, unreadable or odd files).

/** Reads `length` bytes from `offset` (fewer at the end of the file). */
export type ByteReader = (offset: number, length: number) => Promise<Uint8Array>;

interface Box {
  type: string;
  /** Offset of the payload from the start of the buffer (or file) the box was found in. */
  start: number;
  end: number;
}

interface VideoTrack {
  id: number;
  timescale: number;
  /** Sample duration (in `timescale` units) → how many samples have it. */
  durations: Map<number, number>;
}

/** Top-level boxes looked at before giving up (`ftyp`, `free`, `moov`, `moof`, `mdat`…). */
const MOST_TOP_LEVEL_BOXES = 12;
/** A `moov` or `moof` larger than this is not read (a sample table of many hours). */
const LARGEST_BOX_BYTES = 16 * 1024 * 1024;
const HEADER_BYTES = 16;

function boxesIn(bytes: Uint8Array, from: number, to: number): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: Box[] = [];
  let offset = from;
  while (offset + 8 <= to) {
    let size = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    let header = 8;
    if (size === 1) {
      if (offset + 16 > to) break;
      size = Number(view.getBigUint64(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = to - offset;
    }
    if (size < header || offset + size > to) break;
    boxes.push({ type, start: offset + header, end: offset + size });
    offset += size;
  }
  return boxes;
}

const child = (bytes: Uint8Array, box: Box | undefined, type: string) =>
  box && boxesIn(bytes, box.start, box.end).find((each) => each.type === type);

function addDuration(durations: Map<number, number>, duration: number, count: number): void {
  if (duration > 0 && count > 0) durations.set(duration, (durations.get(duration) ?? 0) + count);
}

/** The first video `trak` of a `moov`: its id, time scale and sample durations (none when fragmented). */
function videoTrackOf(bytes: Uint8Array, moov: Box): VideoTrack | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const trak of boxesIn(bytes, moov.start, moov.end).filter((box) => box.type === 'trak')) {
    const mdia = child(bytes, trak, 'mdia');
    const hdlr = child(bytes, mdia, 'hdlr');
    const mdhd = child(bytes, mdia, 'mdhd');
    const tkhd = child(bytes, trak, 'tkhd');
    if (!hdlr || !mdhd || !tkhd || String.fromCharCode(...bytes.subarray(hdlr.start + 8, hdlr.start + 12)) !== 'vide') continue;
    const longTimes = bytes[mdhd.start] === 1;
    const timescale = view.getUint32(mdhd.start + (longTimes ? 20 : 12));
    const id = view.getUint32(tkhd.start + (bytes[tkhd.start] === 1 ? 20 : 12));
    const durations = new Map<number, number>();
    const stts = child(bytes, child(bytes, child(bytes, mdia, 'minf'), 'stbl'), 'stts');
    if (stts) {
      const entries = view.getUint32(stts.start + 4);
      for (let entry = 0; entry < entries && stts.start + 16 + entry * 8 <= stts.end; entry++) {
        addDuration(durations, view.getUint32(stts.start + 12 + entry * 8), view.getUint32(stts.start + 8 + entry * 8));
      }
    }
    if (durations.size === 0) {
      const trex = boxesIn(bytes, child(bytes, moov, 'mvex')?.start ?? 0, child(bytes, moov, 'mvex')?.end ?? 0).find(
        (box) => box.type === 'trex' && view.getUint32(box.start + 4) === id,
      );
      // Only a hint: a fragment's own durations, when found, count for more samples.
      if (trex) addDuration(durations, view.getUint32(trex.start + 12), 1);
    }
    return { id, timescale, durations };
  }
  return undefined;
}

/** The sample durations a `moof` gives the track: per sample in `trun`, else the `tfhd` default. */
function fragmentDurations(bytes: Uint8Array, moof: Box, track: VideoTrack): Map<number, number> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const durations = new Map<number, number>();
  for (const traf of boxesIn(bytes, moof.start, moof.end).filter((box) => box.type === 'traf')) {
    const tfhd = child(bytes, traf, 'tfhd');
    if (!tfhd || view.getUint32(tfhd.start + 4) !== track.id) continue;
    const tfhdFlags = view.getUint32(tfhd.start) & 0xffffff;
    let field = tfhd.start + 8 + (tfhdFlags & 0x1 ? 8 : 0) + (tfhdFlags & 0x2 ? 4 : 0);
    const defaultDuration = tfhdFlags & 0x8 ? view.getUint32(field) : undefined;
    for (const trun of boxesIn(bytes, traf.start, traf.end).filter((box) => box.type === 'trun')) {
      const flags = view.getUint32(trun.start) & 0xffffff;
      const samples = view.getUint32(trun.start + 4);
      if (!(flags & 0x100)) {
        addDuration(durations, defaultDuration ?? 0, samples);
        continue;
      }
      const perSample = [0x100, 0x200, 0x400, 0x800].filter((bit) => flags & bit).length * 4;
      field = trun.start + 8 + (flags & 0x1 ? 4 : 0) + (flags & 0x4 ? 4 : 0);
      for (let sample = 0; sample < samples && field + 4 <= trun.end; sample++, field += perSample) {
        addDuration(durations, view.getUint32(field), 1);
      }
    }
  }
  return durations;
}

function framesPerSecond(track: VideoTrack, durations: Map<number, number>): number | undefined {
  // The most common sample duration: a variable-rate capture's odd frames do not decide.
  const [duration] = [...durations].reduce((most, each) => (each[1] > most[1] ? each : most), [0, 0]);
  const fps = duration > 0 ? track.timescale / duration : 0;
  return fps >= 1 && fps <= 1000 ? Math.round(fps * 1000) / 1000 : undefined;
}

/** The video's frames per second, or undefined when the file does not say (or is not an MP4). */
export async function readMp4FrameRate(read: ByteReader): Promise<number | undefined> {
  let offset = 0;
  let track: VideoTrack | undefined;
  for (let index = 0; index < MOST_TOP_LEVEL_BOXES; index++) {
    const header = await read(offset, HEADER_BYTES);
    if (header.length < 8) break;
    const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
    const type = String.fromCharCode(...header.subarray(4, 8));
    const size = view.getUint32(0) === 1 && header.length >= 16 ? Number(view.getBigUint64(8)) : view.getUint32(0);
    if (index === 0 && type !== 'ftyp') return undefined;
    if (size < 8) break;
    if ((type === 'moov' || (type === 'moof' && track)) && size <= LARGEST_BOX_BYTES) {
      const bytes = await read(offset, size);
      const box = boxesIn(bytes, 0, bytes.length)[0];
      if (!box) break;
      if (type === 'moov') {
        track = videoTrackOf(bytes, box);
        if (!track) return undefined;
        if ([...track.durations.values()].some((count) => count > 1)) return framesPerSecond(track, track.durations);
      } else if (track) {
        const durations = fragmentDurations(bytes, box, track);
        if (durations.size > 0) return framesPerSecond(track, durations);
      }
    }
    offset += size;
  }
  return track && framesPerSecond(track, track.durations);
}

/** A `ByteReader` over HTTP range requests (the service's media route answers them). */
export function rangeReader(url: string, signal: AbortSignal): ByteReader {
  return async (offset, length) => {
    const response = await fetch(url, { headers: { Range: `bytes=${offset}-${offset + length - 1}` }, signal });
    if (response.status === 416) return new Uint8Array();
    if (response.status !== 206) throw new Error(`range read answered ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
}
