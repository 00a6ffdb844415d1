import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { locateFfmpegTools } from './ffmpeg-toolbox.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import {
  computeWaveform,
  emptyWaveform,
  samplesPerPixelFor,
  toEightBits,
  WaveformPeaks,
  waveformPath,
  writeWaveform,
  WAVEFORM_SAMPLE_RATE,
} from './waveform.js';

/**
 * s16le PCM of a tone at a quarter of the sample rate: the samples go 0, A, 0, -A, so every
 * column of the waveform holds the tone's amplitude exactly.
 */
function quarterRateTone(amplitude: number, samples: number): Buffer {
  const pcm = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index++) pcm.writeInt16LE([0, amplitude, 0, -amplitude][index % 4]!, index * 2);
  return pcm;
}

describe('waveform peaks', function () {
  this.timeout(20000);

  it('takes min and max per column, scaled to 8 bits, from a tone of known amplitude', () => {
    const peaks = new WaveformPeaks(100);
    // 2 columns at amplitude 8192, 1 of silence, 2 at full scale, then a partial column at 1024.
    const pcm = Buffer.concat([quarterRateTone(8192, 200), Buffer.alloc(200), quarterRateTone(32767, 200), quarterRateTone(1024, 40)]);
    // Chunks that split samples in the middle, as pipes do.
    for (let offset = 0; offset < pcm.length; offset += 333) peaks.push(pcm.subarray(offset, offset + 333));
    const file = peaks.finish();
    expect(file).to.deep.equal({
      version: 2,
      channels: 1,
      sample_rate: 11025,
      samples_per_pixel: 100,
      bits: 8,
      length: 12,
      data: [-32, 32, -32, 32, 0, 0, -127, 127, -127, 127, -4, 4],
    });
    expect(peaks.sampleCount).to.equal(540);
  });

  it('clamps to -128..127 and rounds toward zero like the reference', () => {
    expect([-32768, -32767, -257, -255, 0, 255, 256, 32767].map(toEightBits)).to.deep.equal([-128, -127, -1, 0, 0, 0, 1, 127]);
  });

  it('has about 50 columns per second and an empty form for silence-free files', () => {
    expect(samplesPerPixelFor(undefined)).to.equal(221);
    expect(samplesPerPixelFor(60)).to.equal(221);
    expect(samplesPerPixelFor(4.064)).to.equal(221);
    const hour = samplesPerPixelFor(3600);
    expect(WAVEFORM_SAMPLE_RATE / hour).to.be.within(49.8, 50);
    expect(new WaveformPeaks().finish()).to.deep.equal({
      version: 2,
      channels: 1,
      sample_rate: 11025,
      samples_per_pixel: 1,
      bits: 8,
      length: 0,
      data: [],
    });
  });

  it('decodes a file with ffmpeg and streams its PCM into columns', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-waveform-'));
    try {
      const { ffmpeg } = locateFfmpegTools();
      const tone = path.join(folder, 'tone.wav');
      // A 3 s tone at a quarter of 11025 Hz, ffmpeg's default amplitude of 1/8 (4096 = 16 in 8 bits).
      const make = FfmpegProcess.start({
        ffmpegPath: ffmpeg.path,
        args: ['-f', 'lavfi', '-i', 'sine=frequency=2756.25:sample_rate=11025:duration=3', '-c:a', 'pcm_s16le', '-y', tone],
      });
      expect((await make.exited).succeeded).to.equal(true);

      const peaks = await computeWaveform({ ffmpegPath: ffmpeg.path, video: tone, audioStreams: 1, durationSeconds: 3 });
      expect(peaks).to.deep.include({ version: 2, channels: 1, sample_rate: 11025, samples_per_pixel: 221, bits: 8, length: 300 });
      expect(peaks.data).to.have.length(300);
      const maxima = peaks.data.filter((_, index) => index % 2 === 1);
      const minima = peaks.data.filter((_, index) => index % 2 === 0);
      expect(Math.min(...maxima), 'every column peaks at the amplitude').to.be.within(15, 16);
      expect(Math.max(...maxima)).to.be.within(15, 16);
      expect(Math.max(...minima)).to.be.within(-16, -15);

      expect(await computeWaveform({ ffmpegPath: ffmpeg.path, video: tone, audioStreams: 0 })).to.deep.equal(emptyWaveform());
      const target = waveformPath(folder, 'Full Sessions', 'abc');
      expect(target).to.equal(path.join(folder, 'waveforms', 'Full Sessions', 'abc.peaks.json'));
      await writeWaveform(target, peaks);
      expect(JSON.parse(await readFile(target, 'utf8'))).to.deep.equal(peaks);
      const text = await readFile(target, 'utf8');
      expect(
        text.startsWith('{"version":2,"channels":1,"sample_rate":11025,"samples_per_pixel":221,"bits":8,"length":300,"data":['),
      ).to.equal(true);

      try {
        await computeWaveform({ ffmpegPath: ffmpeg.path, video: path.join(folder, 'missing.mp4'), audioStreams: 1 });
        expect.fail('a missing file has no waveform');
      } catch (error) {
        expect((error as Error).message).to.match(/could not be decoded/);
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
