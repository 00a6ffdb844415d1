// Frames of the recording for on-screen text recognition: a low-rate, full-detail output of the
// recording's one encode (raw RGB on a pipe), of the captured picture at its own aspect ratio.
// Only the newest frame is kept; readers take it when they are ready, so nothing ever queues. Two
// buffers take turns: a fresh 6 MiB buffer five times a second made V8 collect its whole heap every
// second or two (external memory pressure), which cost more CPU than reading the text. For the same
// reason a child process's pipe is read straight into those buffers (see `readInPlace`).
import { Socket, type OnReadOpts, type SocketConstructorOpts } from 'node:net';
import type { Readable } from 'node:stream';
import type { ScreenFrame } from '../../sdk/rgb-image.js';

/** Frames per second of the output: enough for a 200 ms reading interval. */
export const SCREEN_FRAME_RATE = 5;
/** Taller captures are scaled down to this: region OCR at 1080 lines reads game text well. */
export const SCREEN_FRAME_MAX_HEIGHT = 1080;
/** The pipe (file descriptor) of the recording's ffmpeg that carries them. */
export const SCREEN_FRAMES_PIPE = 4;

/** The size of the frames for a captured picture: its own aspect ratio, at most 1080 lines, even sides. */
export function screenFrameSize(captured: { width: number; height: number }): { width: number; height: number } {
  const scale = Math.min(1, SCREEN_FRAME_MAX_HEIGHT / captured.height);
  const even = (value: number) => Math.max(2, Math.round((value * scale) / 2) * 2);
  return { width: even(captured.width), height: even(captured.height) };
}

/** Where readers get frames from: the running recording's, or none. */
export interface ScreenFrameSource {
  /**
   * The newest complete frame, or undefined before the first one (or without a recording). Its pixels
   * stay as they are until the next frame is complete: a caller that keeps them longer copies them.
   */
  latest(): ScreenFrame | undefined;
}

/** Cuts the raw RGB stream into frames; frame n was captured n / rate seconds after the recording's first frame. */
export class ScreenFrames implements ScreenFrameSource {
  private readonly frameBytes: number;
  private filling: Buffer;
  private filled = 0;
  private newest: ScreenFrame | undefined;
  private index = 0;

  constructor(
    private readonly size: { width: number; height: number },
    private readonly frameRate = SCREEN_FRAME_RATE,
  ) {
    this.frameBytes = size.width * size.height * 3;
    this.filling = Buffer.alloc(this.frameBytes);
  }

  /** Reads `stream` to its end (always, so ffmpeg never waits on it). */
  follow(stream: Readable, onError?: (error: Error) => void): void {
    const inPlace = stream instanceof Socket ? this.readInPlace(stream) : undefined;
    if (!inPlace) stream.on('data', (chunk: Buffer) => this.push(chunk));
    (inPlace ?? stream).on('error', (error) => onError?.(error));
  }

  latest(): ScreenFrame | undefined {
    return this.newest;
  }

  /** Frames received so far. */
  get count(): number {
    return this.index;
  }

  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      const taken = Math.min(chunk.length - offset, this.frameBytes - this.filled);
      chunk.copy(this.filling, this.filled, offset, offset + taken);
      offset += taken;
      this.filledBy(taken);
    }
  }

  /**
   * Reads a child process's pipe into the frame being filled, with no chunk in between. Node reads a
   * pipe in 64 KiB chunks, each a new buffer: at ~31 MB/s (1080p, 5 a second) they made V8 collect its
   * whole heap every second or two and cost three times the reading itself (measured in
   * docs/performance.md). Node's own way to read into a given buffer (`onread`) only exists for
   * sockets it creates, so the pipe's handle moves to one (`_handle` is not typed, but it is how
   * every net.Socket holds its handle). Undefined when the pipe has been read from already.
   */
  private readInPlace(pipe: Socket): Socket | undefined {
    const holder = pipe as unknown as { _handle: object | null };
    const handle = holder._handle;
    if (!handle || pipe.readableLength > 0) return undefined;
    holder._handle = null;
    pipe.destroy(); // closes nothing now: the handle is the new socket's
    const onread: OnReadOpts = {
      buffer: () => this.filling.subarray(this.filled),
      callback: (bytes) => {
        this.filledBy(bytes);
        return true;
      },
    };
    const options: SocketConstructorOpts & { handle: object; onread: OnReadOpts } = { handle, readable: true, writable: false, onread };
    return new Socket(options);
  }

  private filledBy(bytes: number): void {
    this.filled += bytes;
    if (this.filled === this.frameBytes) this.complete();
  }

  private complete(): void {
    // The frame handed out before this one gives its buffer to the next (after the first frame).
    const previous = this.newest?.data;
    this.newest = { ...this.size, data: this.filling, timeMs: Math.round((this.index * 1000) / this.frameRate) };
    this.index += 1;
    // Every byte of the next frame is written before it is handed out, so the old contents do not matter.
    this.filling = previous ?? Buffer.allocUnsafe(this.frameBytes);
    this.filled = 0;
  }
}
