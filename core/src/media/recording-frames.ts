// Frames of the recording: the small, slow JPEG stream the recording's ffmpeg writes beside its
// main outputs (480x270, 10 per second). The preview shows them (on-screen text recognition has its
// own full-detail output, screen-frames.ts). Produced for the whole recording, since an output can
// only be added at the start.
import type { Readable } from 'node:stream';

export const FRAME_WIDTH = 480;
export const FRAME_HEIGHT = 270;
export const FRAME_RATE = 10;
/** The pipe (file descriptor) of the recording's ffmpeg that carries the frames. */
export const FRAMES_PIPE = 3;

export interface RecordingFrame {
  jpeg: Buffer;
  width: number;
  height: number;
  /** When the frame arrived from ffmpeg. */
  receivedAt: Date;
}

export type FrameListener = (frame: RecordingFrame) => void;

/** Reads the MJPEG stream of a recording and hands each complete JPEG to the listeners; keeps only the newest. */
export class RecordingFrames {
  private readonly listeners = new Set<FrameListener>();
  private readonly splitter = new JpegFrameSplitter();
  private newest: RecordingFrame | undefined;
  private frameCount = 0;
  private onError: ((error: Error) => void) | undefined;

  constructor(private readonly size: { width: number; height: number } = { width: FRAME_WIDTH, height: FRAME_HEIGHT }) {}

  /** Follows `stream` to its end. It is always read, so ffmpeg never waits for a listener. */
  follow(stream: Readable, onError?: (error: Error) => void): void {
    this.onError = onError;
    stream.on('data', (chunk: Buffer) => {
      for (const jpeg of this.splitter.push(chunk)) this.deliver(jpeg);
    });
    stream.on('error', (error) => onError?.(error));
  }

  /** The newest frame, for readers that look now and then instead of listening. */
  get latest(): RecordingFrame | undefined {
    return this.newest;
  }

  /** Frames received so far. */
  get count(): number {
    return this.frameCount;
  }

  onFrame(listener: FrameListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private deliver(jpeg: Buffer): void {
    const frame: RecordingFrame = { jpeg, ...this.size, receivedAt: new Date() };
    this.newest = frame;
    this.frameCount++;
    for (const listener of this.listeners) {
      try {
        listener(frame);
      } catch (error) {
        this.onError?.(error as Error);
      }
    }
  }
}

/** No frame of the stream is this large; a buffer that grows beyond it holds no JPEG end. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * Cuts a concatenation of JPEG images into whole images. It walks the marker segments (whose
 * lengths are given) up to the scan, then the entropy-coded data, where `FF 00` is a stuffed
 * byte and `FF D0`-`FF D7` restart markers; the first other marker there, `FF D9`, ends the
 * image. So `FF D9` bytes inside tables or comments never end a frame early.
 */
export class JpegFrameSplitter {
  private buffer: Buffer = Buffer.alloc(0);
  /** Where the parse of the current image stopped, to resume when more bytes come. */
  private position = 0;
  private inScan = false;

  /** Broken images skipped so far (the splitter resynchronises on the next start of image). */
  skipped = 0;

  push(chunk: Buffer): Buffer[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const frames: Buffer[] = [];
    for (;;) {
      let end: number | undefined;
      try {
        end = this.findEnd();
      } catch {
        end = undefined;
        this.skip();
        continue;
      }
      if (end === undefined) break;
      frames.push(Buffer.from(this.buffer.subarray(0, end)));
      this.buffer = this.buffer.subarray(end);
      this.position = 0;
      this.inScan = false;
    }
    if (this.buffer.length > MAX_FRAME_BYTES) this.skip();
    return frames;
  }

  /** Gives up the image that starts the buffer and looks for the next one. */
  private skip(): void {
    this.skipped++;
    this.buffer = this.buffer.subarray(2);
    this.position = 0;
    this.inScan = false;
  }

  /** Drops a partial image (when the stream ends mid-frame). */
  reset(): void {
    this.buffer = Buffer.alloc(0);
    this.position = 0;
    this.inScan = false;
  }

  /** The length of the first complete image in the buffer, or undefined when it is not complete yet. */
  private findEnd(): number | undefined {
    const data = this.buffer;
    if (this.position === 0) {
      // Resynchronise on a start-of-image marker; anything before it is not part of a frame.
      const start = indexOfMarker(data, 0xd8, 0);
      if (start < 0) {
        this.buffer = data.length > 0 && data[data.length - 1] === 0xff ? data.subarray(data.length - 1) : Buffer.alloc(0);
        return undefined;
      }
      if (start > 0) this.buffer = data.subarray(start);
      this.position = 2;
      return this.findEnd();
    }
    let index = this.position;
    while (!this.inScan) {
      if (index + 4 > data.length) return this.pause(index);
      if (data[index] !== 0xff) throw new Error(`Broken JPEG: expected a marker at byte ${index}`);
      const marker = data[index + 1]!;
      if (marker === 0xff) {
        index++; // fill byte
        continue;
      }
      if (marker === 0xd9) return index + 2; // an image without a scan
      if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        index += 2; // markers without a length
        continue;
      }
      const length = data.readUInt16BE(index + 2);
      if (length < 2) throw new Error(`Broken JPEG: segment length ${length} at byte ${index}`);
      index += 2 + length;
      if (marker === 0xda) this.inScan = true;
    }
    for (; index + 1 < data.length; index++) {
      if (data[index] !== 0xff) continue;
      const next = data[index + 1]!;
      if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) continue;
      if (next === 0xd9) return index + 2;
      // Another marker after the scan (a progressive JPEG's next table or scan): parse it as a segment.
      this.inScan = false;
      this.position = index;
      return this.findEnd();
    }
    return this.pause(index);
  }

  private pause(index: number): undefined {
    this.position = index;
    return undefined;
  }
}

/** Index of `FF <code>` at or after `from`, or -1. */
function indexOfMarker(data: Buffer, code: number, from: number): number {
  for (let index = data.indexOf(0xff, from); index >= 0 && index + 1 < data.length; index = data.indexOf(0xff, index + 1)) {
    if (data[index + 1] === code) return index;
  }
  return -1;
}

/** Width and height from a JPEG's frame header (SOF0-SOF15 except DHT, JPG, DAC), or undefined. */
export function jpegSize(jpeg: Buffer): { width: number; height: number } | undefined {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return undefined;
  let index = 2;
  while (index + 9 < jpeg.length) {
    if (jpeg[index] !== 0xff) return undefined;
    const marker = jpeg[index + 1]!;
    if (marker === 0xff) {
      index++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: jpeg.readUInt16BE(index + 5), width: jpeg.readUInt16BE(index + 7) };
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    index += 2 + jpeg.readUInt16BE(index + 2);
  }
  return undefined;
}
