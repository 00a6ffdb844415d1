// Waveform peaks of a video's sound for the timeline: `<cache>/waveforms/<TypeFolder>/<id>.peaks.json`
// in the audiowaveform JSON format (version 2, 8 bits, about 50 min/max pairs per second), computed
// from ffmpeg's mono 16-bit PCM at 11025 Hz as it streams, one column at a time.
import { endianness } from 'node:os';
import path from 'node:path';
import { artworkParts } from '../protocol/wire-format.js';
import { writeFileAtomic } from '../support/atomic-file.js';
import type { Logger } from '../support/logger.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { fileInput } from './file-input.js';

export const WAVEFORM_SAMPLE_RATE = 11025;
export const WAVEFORM_COLUMNS_PER_SECOND = 50;

export interface WaveformPeaksFile {
  version: 2;
  channels: 1;
  sample_rate: number;
  samples_per_pixel: number;
  bits: 8;
  /** Number of values in `data` (two per column). */
  length: number;
  /** min, max, min, max, … per column, each -128..127. */
  data: number[];
}

/** `<cacheFolder>/waveforms/<typeFolder>/<id>.peaks.json` */
export function waveformPath(cacheFolder: string, typeFolder: string, id: string): string {
  return path.join(cacheFolder, ...artworkParts('waveform', typeFolder, id));
}

/** The file for a video without sound (or without any sample of it). */
export function emptyWaveform(): WaveformPeaksFile {
  return { version: 2, channels: 1, sample_rate: WAVEFORM_SAMPLE_RATE, samples_per_pixel: 1, bits: 8, length: 0, data: [] };
}

/**
 * Samples per column for a video of that length: the columns are about 50 per second, each holds
 * the same number of samples (the last one fewer). Without a length, 11025 / 50 rounded up.
 */
export function samplesPerPixelFor(durationSeconds: number | undefined): number {
  const perSecond = Math.ceil(WAVEFORM_SAMPLE_RATE / WAVEFORM_COLUMNS_PER_SECOND);
  if (durationSeconds === undefined || !(durationSeconds > 0)) return perSecond;
  const samples = Math.round(durationSeconds * WAVEFORM_SAMPLE_RATE);
  const columns = Math.max(1, Math.round(durationSeconds * WAVEFORM_COLUMNS_PER_SECOND));
  return Math.max(1, Math.ceil(samples / columns));
}

const littleEndianHost = endianness() === 'LE';

/** Min/max per column of signed 16-bit little-endian mono PCM fed in chunks of any size. */
export class WaveformPeaks {
  private readonly data: number[] = [];
  private carry: number | undefined;
  private inColumn = 0;
  private min = 0;
  private max = 0;
  private total = 0;

  constructor(readonly samplesPerPixel: number = samplesPerPixelFor(undefined)) {
    if (!Number.isInteger(samplesPerPixel) || samplesPerPixel < 1)
      throw new Error(`samples per pixel must be a positive integer, not ${samplesPerPixel}`);
  }

  /** Samples taken so far. */
  get sampleCount(): number {
    return this.total;
  }

  push(chunk: Buffer): void {
    let bytes = chunk;
    if (this.carry !== undefined && bytes.length > 0) {
      this.add(Buffer.from([this.carry, bytes[0]!]).readInt16LE(0));
      this.carry = undefined;
      bytes = bytes.subarray(1);
    }
    const count = bytes.length >> 1;
    if (littleEndianHost && bytes.byteOffset % 2 === 0) {
      const samples = new Int16Array(bytes.buffer, bytes.byteOffset, count);
      for (let index = 0; index < count; index++) this.add(samples[index]!);
    } else {
      for (let index = 0; index < count; index++) this.add(bytes.readInt16LE(index * 2));
    }
    if (bytes.length % 2 === 1) this.carry = bytes[bytes.length - 1];
  }

  /** The peaks file; a column that is not full yet counts as the last one. */
  finish(): WaveformPeaksFile {
    if (this.inColumn > 0) this.closeColumn();
    if (this.data.length === 0) return emptyWaveform();
    return {
      version: 2,
      channels: 1,
      sample_rate: WAVEFORM_SAMPLE_RATE,
      samples_per_pixel: this.samplesPerPixel,
      bits: 8,
      length: this.data.length,
      data: [...this.data],
    };
  }

  private add(sample: number): void {
    if (this.inColumn === 0) {
      this.min = sample;
      this.max = sample;
    } else if (sample < this.min) {
      this.min = sample;
    } else if (sample > this.max) {
      this.max = sample;
    }
    this.total++;
    if (++this.inColumn === this.samplesPerPixel) this.closeColumn();
  }

  private closeColumn(): void {
    this.data.push(toEightBits(this.min), toEightBits(this.max));
    this.inColumn = 0;
  }
}

/** 16 bits to 8: divided by 256 toward zero, within -128..127. */
export const toEightBits = (sample: number) => Math.max(-128, Math.min(127, Math.trunc(sample / 256))) + 0; // + 0: no -0

export interface WaveformRequest {
  ffmpegPath: string;
  /** The video, or an ffmpeg input URL with the same sound (`concat:a.ts|b.ts`). */
  video: string;
  /** Audio streams of the video (from a probe): none gives the empty file. */
  audioStreams: number;
  durationSeconds?: number;
  logger?: Logger;
}

/** Decodes the sound of `video` and computes its peaks; only one column of PCM is held at a time. */
export async function computeWaveform({
  ffmpegPath,
  video,
  audioStreams,
  durationSeconds,
  logger,
}: WaveformRequest): Promise<WaveformPeaksFile> {
  if (audioStreams < 1) return emptyWaveform();
  const peaks = new WaveformPeaks(samplesPerPixelFor(durationSeconds));
  const run = FfmpegProcess.start({
    ffmpegPath,
    // Track 0: the full mix of a Keyframe recording, the first (usually the mixed) track of others.
    args: [
      ...fileInput(video),
      '-map',
      '0:a:0',
      '-vn',
      '-ac',
      '1',
      '-ar',
      String(WAVEFORM_SAMPLE_RATE),
      '-c:a',
      'pcm_s16le',
      '-f',
      's16le',
      'pipe:3',
    ],
    outputPipe: true,
    ...(logger ? { logger } : {}),
  });
  run.outputPipe!.on('data', (chunk: Buffer) => peaks.push(chunk));
  const exit = await run.exited;
  if (!exit.succeeded) throw new Error(`The sound of ${video} could not be decoded: ${exit.errorText}`);
  return peaks.finish();
}

export async function writeWaveform(file: string, peaks: WaveformPeaksFile): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(peaks));
}
